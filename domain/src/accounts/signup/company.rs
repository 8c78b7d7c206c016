//! A company's sign-up (`POST /auth/signup-admin`): its own station, the station's main
//! establishment and its admin account (type 1, active), signed in at once.

use std::net::IpAddr;

use sqlx::PgConnection;

use super::{NewAccount, Problems, create_account, pass_captcha, reject};
use crate::accounts::change::AccountError;
use crate::accounts::session::{self, NewSession};
use crate::accounts::{password, signup};
use crate::infra::captcha::CaptchaVerifier;
use crate::infra::images::{self, Encoded, ImageCodec};
use crate::infra::objects::Objects;
use crate::shared::cnpj::Cnpj;
use crate::shared::validate;
use crate::stations::station::{self, NewStation, Station};

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

/// A company's sign-up, as sent; `main_brand_image` is its logo, base64 of a JPEG, PNG,
/// WebP or GIF.
#[derive(Debug)]
pub struct AdminSignup {
    pub name: Option<String>,
    pub email: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    pub cpf: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<String>,
    pub cnpj: Option<String>,
    pub full_social_name: Option<String>,
    pub pretty_name: Option<String>,
    pub subdomain: Option<String>,
    pub country: Option<String>,
    pub main_brand_image: Option<String>,
    pub main_brand_color: Option<String>,
    pub captcha: Option<String>,
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
fn check_fields(form: &AdminSignup, public_url: &str) -> Result<Company, AccountError> {
    let mut problems = Problems::default();
    let name = signup::name(&mut problems, form.name.as_deref());
    let email = signup::email(&mut problems, form.email.as_deref(), true);
    let password = signup::password(
        &mut problems,
        form.password.as_deref(),
        form.password_confirmation.as_deref(),
    );
    let cpf = signup::cpf(&mut problems, form.cpf.as_deref(), false);
    let tel = signup::phone(&mut problems, form.tel.as_deref(), false);
    let birthday = signup::birthday(&mut problems, form.birthday.as_deref(), false, None);
    let cnpj = signup::required_text(&mut problems, form.cnpj.as_deref()).and_then(|cnpj| {
        let parsed = cnpj.parse::<Cnpj>().ok();
        if parsed.is_none() {
            problems.push(validate::message::CNPJ);
        }
        parsed
    });
    let pretty_name = signup::name(&mut problems, form.pretty_name.as_deref());
    let subdomain =
        signup::required_text(&mut problems, form.subdomain.as_deref()).and_then(|typed| {
            problems.check(validate::subdomain(typed));
            let normalized = validate::normalize_subdomain(typed);
            problems.check(validate::max_length(&normalized, SUBDOMAIN_MAX));
            if is_reserved(&normalized, public_url) {
                problems.push(SUBDOMAIN_TAKEN);
                return None;
            }
            station::is_valid_subdomain(&normalized).then_some(normalized)
        });
    if form
        .country
        .as_deref()
        .is_some_and(|country| !country.trim().eq_ignore_ascii_case("BR"))
    {
        problems.push(ONLY_BRAZIL);
    }
    let color =
        signup::required_text(&mut problems, form.main_brand_color.as_deref()).and_then(|color| {
            let ok = color.len() == 7
                && color.starts_with('#')
                && color[1..].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                problems.push(INVALID_COLOR);
            }
            ok.then(|| color.to_ascii_uppercase())
        });
    reject(problems)?;
    let missing = || anyhow::anyhow!("a checked field is missing");
    let social_name = signup::present(form.full_social_name.as_deref())
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

/// A company sign-up that passed every check, its logo re-encoded and its password hashed:
/// what [`create_company`] writes.
pub struct CheckedCompany {
    company: Company,
    logo: Option<Encoded>,
    password_hash: String,
}

/// Names the site only: the rest holds the password and its hash.
impl std::fmt::Debug for CheckedCompany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckedCompany")
            .field("subdomain", &self.company.subdomain)
            .finish_non_exhaustive()
    }
}

/// Checks the form (every field, then the captcha, then the logo), re-encodes the logo and
/// hashes the password, with no transaction open.
pub async fn check_company(
    captcha: &dyn CaptchaVerifier,
    codec: &dyn ImageCodec,
    ip: Option<IpAddr>,
    public_url: &str,
    mut form: AdminSignup,
) -> Result<CheckedCompany, AccountError> {
    let company = check_fields(&form, public_url)?;
    pass_captcha(captcha, form.captcha.as_deref(), ip).await?;
    // Decoding is the costly part: only for a form that is otherwise fine and human.
    let logo = match form.main_brand_image.take() {
        Some(image) => Some(
            images::process(codec, image, LOGO_MAX_SIDE)
                .await?
                .map_err(|err| AccountError::invalid(err.to_string()))?,
        ),
        None => None,
    };
    let password_hash = password::hash_off_thread(company.password.clone()).await?;
    Ok(CheckedCompany {
        company,
        logo,
        password_hash,
    })
}

/// The admin's new session and the station created.
#[derive(Debug)]
pub struct CompanyCreated {
    pub session: NewSession,
    pub station: Station,
}

/// Creates the checked company's station at `{subdomain}.{public host}`, its main
/// establishment, its logo and its admin, and signs the admin in.
pub async fn create_company(
    tx: &mut PgConnection,
    objects: &Objects,
    public_url: &str,
    checked: CheckedCompany,
) -> Result<CompanyCreated, AccountError> {
    let CheckedCompany {
        company,
        logo,
        password_hash,
    } = checked;
    let url = signup::station_url(public_url, &company.subdomain);
    let new_station = NewStation {
        name: &company.pretty_name,
        subdomain: &company.subdomain,
        url: &url,
        main_brand_color: &company.color,
        cnpj: company.cnpj.digits(),
        social_name: &company.social_name,
    };
    let (station_id, establishment_id) = station::create(&mut *tx, &new_station)
        .await?
        .ok_or_else(|| AccountError::invalid(SUBDOMAIN_TAKEN))?;
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
    let user_id = create_account(tx, &account).await?;
    if let Some(logo) = logo {
        // Written before the commit: a failed commit leaves an unused file, never a
        // station pointing at a missing one.
        let key = Objects::new_key(&format!("stations/{station_id}"), logo.extension);
        objects.put(&key, logo.bytes).await?;
        station::set_logo(&mut *tx, station_id, &Objects::url(&key)).await?;
    }
    let session = session::open(tx, user_id, "admin sign-up").await?;
    let station = station::find(&mut *tx, station_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("station {station_id} vanished"))?;
    Ok(CompanyCreated { session, station })
}
