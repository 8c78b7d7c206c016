//! `POST /auth/signup-admin`: a company creates its own station, its main establishment
//! and its admin account (type 1) in one go, and is signed in.

use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::session::NewSession;
use domain::accounts::signup::company::{self, AdminSignup};
use domain::stations::station::Station;
use serde::Serialize;
use utoipa::ToSchema;

use crate::client_ip::ClientIp;
use crate::error::{ApiResult, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::state::AppState;

/// The admin's new session plus the station created.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct AdminCreated {
    #[serde(flatten)]
    session: NewSession,
    station: Station,
}

/// Creates a company's station, main establishment and admin account, and signs it in
#[utoipa::path(
    post,
    path = "/auth/signup-admin",
    tag = "accounts",
    request_body = AdminSignup,
    responses(
        (status = 201, description = "Created and signed in", body = AdminCreated),
        (status = 422, description = "A field breaks a rule (every broken rule listed), the subdomain is taken or reserved, the logo cannot be read, the captcha failed, or the e-mail already has an account", body = Messages),
        (status = 429, description = "Too many sign-up calls from this address", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub(super) async fn signup_admin(
    _: SignupThrottle,
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(form): Json<AdminSignup>,
) -> ApiResult<(StatusCode, Json<AdminCreated>)> {
    let public_url = &state.config.public_url;
    let checked = company::check_company(&*state.captcha, ip, public_url, form).await?;
    let mut tx = state.db.begin().await?;
    let created = company::create_company(&mut tx, &state.objects, public_url, checked).await?;
    tx.commit().await?;
    tracing::info!(
        station_id = created.station.id,
        user_id = created.session.user.id,
        "company signed up"
    );
    Ok((
        StatusCode::CREATED,
        Json(AdminCreated {
            session: created.session,
            station: created.station,
        }),
    ))
}
