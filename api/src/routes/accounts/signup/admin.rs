//! `POST /auth/signup-admin`: a company creates its own station, its main establishment
//! and its admin account (type 1) in one go, and is signed in.

use axum::extract::State;
use axum::http::StatusCode;
use domain::accounts::signup::{self, NewAccount, Problems};
use domain::infra::images;
use domain::infra::objects::Objects;
use domain::shared::cnpj::Cnpj;
use domain::shared::validate;
use domain::stations::station::{self, NewStation, Station};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{check_captcha, create_account, hash_password, reject};
use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::Json;
use crate::ip_throttle::SignupThrottle;
use crate::routes::accounts::auth::{LoginResponse, start_session_in};
use crate::state::AppState;

pub const SUBDOMAIN_TAKEN: &str = "Este endereço já está em uso.";
pub const INVALID_COLOR: &str = "Cor inválida. Use o formato #RRGGBB.";
pub const ONLY_BRAZIL: &str = "No momento, apenas empresas do Brasil (BR) podem se cadastrar.";
/// A logo is shown small; larger ones are shrunk to fit this square.
const LOGO_MAX_SIDE: u32 = 1024;
/// Hosts the platform keeps for itself; the platform's own first label is added at run time.
const RESERVED_SUBDOMAINS: [&str; 8] = [
    "www", "api", "app", "admin", "mail", "static", "cdn", "suporte",
];
/// DNS labels stop at 63 characters.
const SUBDOMAIN_MAX: usize = 63;

/// A logo as the form sends it: base64 of a JPEG, PNG, WebP or GIF.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = BrandImage)]
pub(super) struct Image {
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
}

/// The admin's new session plus the station created.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct AdminCreated {
    #[serde(flatten)]
    session: LoginResponse,
    station: Station,
}

/// Everything the form sent, checked and normalised.
struct Company {
    name: String,
    email: String,
    password: String,
    cpf: Option<String>,
    tel: Option<String>,
    birthday: Option<chrono::NaiveDate>,
    cnpj: Cnpj,
    social_name: String,
    pretty_name: String,
    subdomain: String,
    color: String,
}

/// Every rule the form breaks, listed together.
fn check(request: &AdminSignup, public_url: &str) -> ApiResult<Company> {
    let mut problems = Problems::default();
    let name = signup::name(&mut problems, request.name.as_deref());
    let email = signup::email(&mut problems, request.email.as_deref(), true);
    let password = signup::password(
        &mut problems,
        request.password.as_deref(),
        request.password_confirmation.as_deref(),
    );
    let cpf = signup::cpf(&mut problems, request.cpf.as_deref(), false);
    let tel = signup::phone(&mut problems, request.tel.as_deref(), false);
    let birthday = signup::birthday(&mut problems, request.birthday.as_deref(), false, None);
    let cnpj = signup::required_text(&mut problems, request.cnpj.as_deref()).and_then(|cnpj| {
        let parsed = cnpj.parse::<Cnpj>().ok();
        if parsed.is_none() {
            problems.push(validate::message::CNPJ);
        }
        parsed
    });
    let pretty_name = signup::name(&mut problems, request.pretty_name.as_deref());
    let subdomain =
        signup::required_text(&mut problems, request.subdomain.as_deref()).and_then(|typed| {
            problems.check(validate::subdomain(typed));
            let normalized = validate::normalize_subdomain(typed);
            problems.check(validate::max_length(&normalized, SUBDOMAIN_MAX));
            if is_reserved(&normalized, public_url) {
                problems.push(SUBDOMAIN_TAKEN);
                return None;
            }
            station::is_valid_subdomain(&normalized).then_some(normalized)
        });
    if request
        .country
        .as_deref()
        .is_some_and(|country| !country.trim().eq_ignore_ascii_case("BR"))
    {
        problems.push(ONLY_BRAZIL);
    }
    let color = signup::required_text(&mut problems, request.main_brand_color.as_deref()).and_then(
        |color| {
            let ok = color.len() == 7
                && color.starts_with('#')
                && color[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                problems.push(INVALID_COLOR);
            }
            ok.then(|| color.to_ascii_uppercase())
        },
    );
    reject(problems)?;
    let missing = || anyhow::anyhow!("a checked field is missing");
    let social_name = signup::present(request.full_social_name.as_deref())
        .map(String::from)
        .or_else(|| pretty_name.clone())
        .ok_or_else(missing)?;
    Ok(Company {
        name: name.ok_or_else(missing)?,
        email: email.ok_or_else(missing)?,
        password: password.ok_or_else(missing)?,
        cpf,
        tel,
        birthday,
        cnpj: cnpj.ok_or_else(missing)?,
        social_name,
        pretty_name: pretty_name.ok_or_else(missing)?,
        subdomain: subdomain.ok_or_else(missing)?,
        color: color.ok_or_else(missing)?,
    })
}

/// A platform host (`www`, `api`...) or the first label of the platform's own host
/// (`filia` of `https://filia.com.br`), which a station would shadow.
fn is_reserved(subdomain: &str, public_url: &str) -> bool {
    let host = public_url
        .split_once("://")
        .map_or(public_url, |(_, rest)| rest)
        .split(['/', ':'])
        .next()
        .unwrap_or_default();
    let own = host.split('.').next().unwrap_or_default();
    RESERVED_SUBDOMAINS.contains(&subdomain) || own.eq_ignore_ascii_case(subdomain)
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
    Json(mut request): Json<AdminSignup>,
) -> ApiResult<(StatusCode, Json<AdminCreated>)> {
    let company = check(&request, &state.config.public_url)?;
    check_captcha(&state, request.captcha.as_deref(), ip).await?;
    // Decoding is the costly part: only for a form that is otherwise fine and human.
    let logo = match request.main_brand_image.take() {
        Some(image) => Some(
            images::process(image.base64, LOGO_MAX_SIDE)
                .await?
                .map_err(|err| ApiError::invalid(err.to_string()))?,
        ),
        None => None,
    };
    let password_hash = hash_password(company.password.clone()).await?;

    let mut tx = state.db.begin().await?;
    let url = signup::station_url(&state.config.public_url, &company.subdomain);
    let new_station = NewStation {
        name: &company.pretty_name,
        subdomain: &company.subdomain,
        url: &url,
        main_brand_color: &company.color,
        cnpj: company.cnpj.digits(),
        social_name: &company.social_name,
    };
    let (station_id, establishment_id) = station::create(&mut tx, &new_station)
        .await?
        .ok_or_else(|| ApiError::invalid(SUBDOMAIN_TAKEN))?;
    let account = NewAccount {
        station_id,
        name: company.name,
        email: Some(company.email),
        cpf: company.cpf,
        tel: company.tel,
        birthday: company.birthday,
        password_hash: Some(password_hash),
        type_id: 1,
        active: true,
        establishment_id: Some(establishment_id),
        ..NewAccount::default()
    };
    let user_id = create_account(&mut tx, &account).await?;
    if let Some(logo) = logo {
        // Written before the commit: a failed commit leaves an unused file, never a
        // station pointing at a missing one.
        let key = Objects::new_key(&format!("stations/{station_id}"), logo.extension);
        state.objects.put(&key, logo.bytes).await?;
        station::set_logo(&mut *tx, station_id, &Objects::url(&key)).await?;
    }
    let Json(session) = start_session_in(&mut tx, user_id, "admin sign-up").await?;
    tx.commit().await?;
    tracing::info!(station_id, user_id, "company signed up");

    let station = station::find(&state.db, station_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("station {station_id} vanished"))?;
    Ok((StatusCode::CREATED, Json(AdminCreated { session, station })))
}
