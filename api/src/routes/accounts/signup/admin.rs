//! `POST /auth/signup-admin`: a company creates its own station, its main establishment
//! and its admin account (type 1) in one go, and is signed in.

use app::accounts::signup;
use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::signup::company;
use serde::Deserialize;
use serde::Serialize;
use serde::de::IgnoredAny;
use utoipa::ToSchema;

use crate::client_ip::ClientIp;
use crate::error::{ApiResult, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::routes::accounts::auth::NewSession;
use crate::routes::stations::branding::Station;
use crate::state::AppState;

/// A logo as the form sends it: base64 of a JPEG, PNG, WebP or GIF.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = BrandImage)]
struct Image {
    #[serde(rename = "imageType")]
    _image_type: Option<String>,
    base64: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct AdminSignup {
    name: Option<String>,
    email: Option<String>,
    password: Option<String>,
    password_confirmation: Option<String>,
    cpf: Option<String>,
    tel: Option<String>,
    birthday: Option<String>,
    cnpj: Option<String>,
    full_social_name: Option<String>,
    #[serde(rename = "prettyName")]
    pretty_name: Option<String>,
    subdomain: Option<String>,
    country: Option<String>,
    main_brand_image: Option<Image>,
    main_brand_color: Option<String>,
    captcha: Option<String>,
    /// The account type, sent as the spec's sign-up sends it and never read: this form
    /// makes company admins (1).
    #[serde(rename = "type")]
    #[schema(value_type = Option<i64>)]
    _type: Option<IgnoredAny>,
}

impl From<AdminSignup> for company::AdminSignup {
    fn from(form: AdminSignup) -> Self {
        Self {
            name: form.name,
            email: form.email,
            password: form.password,
            password_confirmation: form.password_confirmation,
            cpf: form.cpf,
            tel: form.tel,
            birthday: form.birthday,
            cnpj: form.cnpj,
            full_social_name: form.full_social_name,
            pretty_name: form.pretty_name,
            subdomain: form.subdomain,
            country: form.country,
            main_brand_image: form.main_brand_image.map(|image| image.base64),
            main_brand_color: form.main_brand_color,
            captcha: form.captcha,
        }
    }
}

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
    let created = signup::company(
        &state.db,
        &state.objects,
        &jobs::JobOutbox,
        &*state.captcha,
        &media::images::ImageCrate,
        ip,
        &state.config.public_url,
        form.into(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(AdminCreated {
            session: created.session.into(),
            station: created.station.into(),
        }),
    ))
}
