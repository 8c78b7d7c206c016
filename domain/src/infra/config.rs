//! Typed configuration: every setting has a default and can be overridden by an environment
//! variable. The README's configuration table mirrors `Config::from_lookup`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

use secrecy::{ExposeSecret, SecretString};

#[derive(Debug, Clone)]
pub struct Config {
    /// May carry a password, so it is kept secret.
    pub database_url: SecretString,
    pub database_max_connections: u32,
    pub redis_url: SecretString,
    pub bind: SocketAddr,
    /// `/metrics` on a listener of its own; then the public one does not serve it.
    pub metrics_bind: Option<SocketAddr>,
    /// Bearer token `/metrics` asks for. Without it and without `metrics_bind`, the
    /// public listener does not serve `/metrics` at all.
    pub metrics_token: Option<SecretString>,
    /// The address members reach the app at; used in links inside e-mails and PDFs.
    pub public_url: String,
    pub data_dir: PathBuf,
    /// Where receipts and vouchers read Lato (`FILIA_PDF_FONT_DIR`).
    pub pdf_font_dir: PathBuf,
    pub web_dir: PathBuf,
    /// `None`: e-mails are written as files under `data_dir/mail`.
    pub smtp_url: Option<SecretString>,
    pub payments: PaymentsProvider,
    /// Pagar.me's secret key (`sk_...`), the user of its HTTP Basic; required for `pagarme`.
    pub pagarme_secret_key: Option<SecretString>,
    /// The PEM public key Pagar.me signs webhooks with; required for `pagarme`.
    pub pagarme_webhook_public_key: Option<String>,
    /// Pagar.me's public key (`pk_...`): the browser sends cards to Pagar.me's tokeniser
    /// with it, so card data never reaches us; required for `pagarme`.
    pub pagarme_public_key: Option<String>,
    /// Pagar.me's API base; overridable so a test can answer like it.
    pub pagarme_url: String,
    /// How long a call to the payment provider may take, in seconds.
    pub payments_timeout_seconds: u64,
    /// How long a confirmed cart is held (`FILIA_HOLD_SECONDS`, 900: the spec's 15 minutes;
    /// shorter only for tests that watch a hold run out).
    pub hold_seconds: u32,
    /// The sandbox provider's key for signing its webhooks (HMAC-SHA256).
    pub sandbox_webhook_secret: SecretString,
    /// Receiver shown by bank apps in BR Codes (cut to 25 and 15 characters, no accents).
    pub pix_merchant_name: String,
    pub pix_merchant_city: String,
    /// The PIX key of static BR Codes, when the deployment has one.
    pub pix_key: Option<String>,
    /// The station answered for a host name that matches no station.
    pub default_station: Option<StationRef>,
    pub log_filter: String,
    pub log_format: LogFormat,
    /// Finished jobs are pruned after these many days: succeeded ones, then failed or
    /// cancelled ones (kept longer, for support).
    pub job_retention_succeeded_days: u32,
    pub job_retention_failed_days: u32,
    /// Every Redis key this deployment writes starts with this (several deployments, or
    /// parallel tests, can share one Redis).
    pub redis_prefix: String,
    /// Wrong passwords in a row, per account identifier, before logins wait out the window.
    pub login_max_failures: u32,
    /// Failed logins from one IP address within the window before that address waits.
    pub login_max_failures_per_ip: u32,
    pub login_window_seconds: u64,
    /// Account-creating public calls (sign-ups, reset links) from one IP address per window.
    pub signup_max_per_ip: u32,
    pub signup_window_seconds: u64,
    /// Share-link visits (`POST /api/validate-sharing`) from one IP address per window.
    pub share_max_per_ip: u32,
    pub share_window_seconds: u64,
    /// Activation calls (`confirmation-method`, `resend-confirmation-email`,
    /// `activate-participant`) from one IP address per window.
    pub activation_max_per_ip: u32,
    pub activation_window_seconds: u64,
    /// Take the client address from the last `X-Forwarded-For` hop (behind a reverse proxy
    /// that sets it); otherwise the TCP peer address is used.
    pub trust_forwarded_for: bool,
    /// Key for the HMAC of links that act without a session (mailing-list hashes). Stable
    /// across restarts and shared by every process; rotating it voids links already sent.
    pub signing_key: SecretString,
    /// Human verification on public forms: `off` (development, tests) or `turnstile`.
    pub captcha: CaptchaProvider,
    /// The provider's secret for its verify call; required when `captcha` is not `off`.
    pub captcha_secret: Option<SecretString>,
    /// The provider's public site key, handed to the web app's widget.
    pub captcha_site_key: Option<String>,
    /// Where the captcha token is checked; overridable so a test can answer like the provider.
    pub captcha_verify_url: String,
    /// The wait between two activation-code e-mails to one address of a station.
    pub confirmation_resend_seconds: u64,
    /// Activation-code e-mails to one address of a station within a rolling day.
    pub confirmation_max_per_day: u32,
    /// Multiplies every queue's retry backoff (base and cap) when the workers declare their
    /// queues: stretch retries during an incident, or keep a failed job waiting in a test.
    pub job_backoff_scale: f64,
    /// How often an idle worker looks for due jobs no NOTIFY announced (scheduled jobs,
    /// retries, a missed notification), in seconds.
    pub job_poll_seconds: u64,
    /// Orders placed (each charges the payment provider) per member per window.
    pub orders_max_per_member: u32,
    pub orders_window_seconds: u64,
    /// "Verificar pagamento" calls (each may read the charge at the provider) per member
    /// per window.
    pub payment_checks_max_per_member: u32,
    pub payment_checks_window_seconds: u64,
    /// The sandbox's own routes (simulated PIX payments, card tokens) per member per window.
    pub sandbox_calls_max_per_member: u32,
    pub sandbox_calls_window_seconds: u64,
    /// A charge read from the provider this many seconds ago or less is not read again by
    /// "Verificar pagamento".
    pub payment_read_reuse_seconds: u64,
    /// Bytes of images and documents (`upload-image-to-s3`, `files/actions`) one member may
    /// store within a rolling day.
    pub upload_bytes_per_day: u64,
    /// The address lookup's provider, a ViaCEP-like JSON API: `{cep_url}/{8 digits}/json/`.
    pub cep_url: String,
    /// CEP lookups (`POST /api/get-address-zip-code`) per member, or per client address for
    /// a visitor, per window.
    pub cep_lookups_max: u32,
    pub cep_lookups_window_seconds: u64,
    /// The states-and-cities lookup's provider, an IBGE-localidades-like JSON API:
    /// `{ibge_url}/api/v1/localidades/estados/{UF}/municipios`.
    pub ibge_url: String,
    /// City-list lookups (`GET /api/states/{uf}/cities`) per client address per window.
    pub cities_lookups_max: u32,
    pub cities_lookups_window_seconds: u64,
    /// Support messages one station receives within an hour (then 429 for its senders),
    /// so its inbox cannot be flooded from many addresses.
    pub support_max_per_station: u32,
    /// A test deployment reached over https (`FILIA_STAGING`): the only way the sandbox
    /// provider and `api seed-demo` run behind an https public URL.
    pub staging: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptchaProvider {
    Off,
    Turnstile,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentsProvider {
    Sandbox,
    Pagarme,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// A station named in configuration, by id or by subdomain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StationRef {
    Id(i64),
    Subdomain(String),
}

/// The browser's card tokeniser: `POST {url}?appId={app_id}` with the card, answered by a
/// token the order carries instead of the card (docs/api-commerce.md, "Paying by card and
/// PIX").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardTokenizer {
    pub url: String,
    /// The provider's public key (`pk_...`).
    pub app_id: String,
}

impl CardTokenizer {
    /// The scheme, host and port the browser connects to (for the Content-Security-Policy).
    pub fn origin(&self) -> String {
        url::Url::parse(&self.url)
            .map(|url| url.origin().ascii_serialization())
            .unwrap_or_default()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {variable}: {reason}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub reason: String,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
    }

    /// Builds the configuration from any source of variables, so tests need no process env.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let bind: SocketAddr = parse(&lookup, "FILIA_BIND", "127.0.0.1:8080")?;
        Ok(Self {
            database_url: SecretString::from(
                lookup("DATABASE_URL")
                    .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/filia".into()),
            ),
            database_max_connections: parse(&lookup, "FILIA_DB_MAX_CONNECTIONS", "10")?,
            redis_url: SecretString::from(
                lookup("REDIS_URL").unwrap_or_else(|| "redis://127.0.0.1:6379".into()),
            ),
            public_url: lookup("FILIA_PUBLIC_URL")
                .unwrap_or_else(|| format!("http://{bind}"))
                .trim_end_matches('/')
                .to_string(),
            bind,
            metrics_bind: match lookup("FILIA_METRICS_BIND") {
                Some(value) => Some(value.parse().map_err(|err| ConfigError {
                    variable: "FILIA_METRICS_BIND",
                    reason: format!("{err}"),
                })?),
                None => None,
            },
            metrics_token: lookup("FILIA_METRICS_TOKEN").map(SecretString::from),
            data_dir: lookup("FILIA_DATA_DIR")
                .unwrap_or_else(|| "./data".into())
                .into(),
            pdf_font_dir: lookup("FILIA_PDF_FONT_DIR")
                .unwrap_or_else(|| DEFAULT_PDF_FONT_DIR.into())
                .into(),
            web_dir: lookup("FILIA_WEB_DIR")
                .unwrap_or_else(|| "web/dist".into())
                .into(),
            smtp_url: lookup("FILIA_SMTP_URL").map(SecretString::from),
            payments: parse(&lookup, "FILIA_PAYMENTS", "sandbox")?,
            pagarme_secret_key: lookup("FILIA_PAGARME_SECRET_KEY").map(SecretString::from),
            pagarme_webhook_public_key: lookup("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY"),
            pagarme_public_key: lookup("FILIA_PAGARME_PUBLIC_KEY"),
            pagarme_url: lookup("FILIA_PAGARME_URL").unwrap_or_else(|| DEFAULT_PAGARME_URL.into()),
            payments_timeout_seconds: parse(&lookup, "FILIA_PAYMENTS_TIMEOUT_SECONDS", "20")?,
            hold_seconds: parse(&lookup, "FILIA_HOLD_SECONDS", "900")?,
            sandbox_webhook_secret: SecretString::from(
                lookup("FILIA_SANDBOX_WEBHOOK_SECRET")
                    .unwrap_or_else(|| DEVELOPMENT_SANDBOX_WEBHOOK_SECRET.into()),
            ),
            pix_merchant_name: lookup("FILIA_PIX_MERCHANT_NAME").unwrap_or_else(|| "Filia".into()),
            pix_merchant_city: lookup("FILIA_PIX_MERCHANT_CITY")
                .unwrap_or_else(|| "Sao Paulo".into()),
            pix_key: lookup("FILIA_PIX_KEY"),
            default_station: match lookup("FILIA_DEFAULT_STATION") {
                Some(value) if value == "none" => None,
                Some(value) => Some(value.parse().map_err(|reason| ConfigError {
                    variable: "FILIA_DEFAULT_STATION",
                    reason,
                })?),
                None => Some(StationRef::Subdomain(DEFAULT_STATION_SUBDOMAIN.into())),
            },
            log_filter: lookup("FILIA_LOG")
                .unwrap_or_else(|| "info,sqlx::postgres::notice=warn".into()),
            log_format: parse(&lookup, "FILIA_LOG_FORMAT", "text")?,
            job_retention_succeeded_days: parse(
                &lookup,
                "FILIA_JOB_RETENTION_SUCCEEDED_DAYS",
                "14",
            )?,
            job_retention_failed_days: parse(&lookup, "FILIA_JOB_RETENTION_FAILED_DAYS", "90")?,
            redis_prefix: lookup("FILIA_REDIS_PREFIX").unwrap_or_else(|| "filia:".into()),
            login_max_failures: parse(&lookup, "FILIA_LOGIN_MAX_FAILURES", "5")?,
            login_max_failures_per_ip: parse(&lookup, "FILIA_LOGIN_MAX_FAILURES_PER_IP", "50")?,
            login_window_seconds: parse(&lookup, "FILIA_LOGIN_WINDOW_SECONDS", "900")?,
            signup_max_per_ip: parse(&lookup, "FILIA_SIGNUP_MAX_PER_IP", "20")?,
            signup_window_seconds: parse(&lookup, "FILIA_SIGNUP_WINDOW_SECONDS", "3600")?,
            share_max_per_ip: parse(&lookup, "FILIA_SHARE_MAX_PER_IP", "30")?,
            share_window_seconds: parse(&lookup, "FILIA_SHARE_WINDOW_SECONDS", "600")?,
            activation_max_per_ip: parse(&lookup, "FILIA_ACTIVATION_MAX_PER_IP", "30")?,
            activation_window_seconds: parse(&lookup, "FILIA_ACTIVATION_WINDOW_SECONDS", "900")?,
            trust_forwarded_for: parse(&lookup, "FILIA_TRUST_FORWARDED_FOR", "false")?,
            signing_key: SecretString::from(
                lookup("FILIA_SIGNING_KEY").unwrap_or_else(|| DEVELOPMENT_SIGNING_KEY.into()),
            ),
            captcha: parse(&lookup, "FILIA_CAPTCHA", "off")?,
            captcha_secret: lookup("FILIA_CAPTCHA_SECRET").map(SecretString::from),
            captcha_site_key: lookup("FILIA_CAPTCHA_SITE_KEY"),
            captcha_verify_url: lookup("FILIA_CAPTCHA_VERIFY_URL")
                .unwrap_or_else(|| crate::infra::captcha::TURNSTILE_VERIFY_URL.into()),
            confirmation_resend_seconds: parse(&lookup, "FILIA_CONFIRMATION_RESEND_SECONDS", "60")?,
            confirmation_max_per_day: parse(&lookup, "FILIA_CONFIRMATION_MAX_PER_DAY", "10")?,
            job_backoff_scale: parse(&lookup, "FILIA_JOB_BACKOFF_SCALE", "1")?,
            job_poll_seconds: parse(&lookup, "FILIA_JOB_POLL_SECONDS", "1")?,
            orders_max_per_member: parse(&lookup, "FILIA_ORDERS_MAX_PER_MEMBER", "10")?,
            orders_window_seconds: parse(&lookup, "FILIA_ORDERS_WINDOW_SECONDS", "600")?,
            payment_checks_max_per_member: parse(
                &lookup,
                "FILIA_PAYMENT_CHECKS_MAX_PER_MEMBER",
                "20",
            )?,
            payment_checks_window_seconds: parse(
                &lookup,
                "FILIA_PAYMENT_CHECKS_WINDOW_SECONDS",
                "600",
            )?,
            sandbox_calls_max_per_member: parse(
                &lookup,
                "FILIA_SANDBOX_CALLS_MAX_PER_MEMBER",
                "30",
            )?,
            sandbox_calls_window_seconds: parse(
                &lookup,
                "FILIA_SANDBOX_CALLS_WINDOW_SECONDS",
                "600",
            )?,
            payment_read_reuse_seconds: parse(&lookup, "FILIA_PAYMENT_READ_REUSE_SECONDS", "5")?,
            upload_bytes_per_day: parse(&lookup, "FILIA_UPLOAD_BYTES_PER_DAY", "50000000")?,
            staging: parse(&lookup, "FILIA_STAGING", "false")?,
            cep_url: lookup("FILIA_CEP_URL")
                .unwrap_or_else(|| DEFAULT_CEP_URL.into())
                .trim_end_matches('/')
                .to_string(),
            cep_lookups_max: parse(&lookup, "FILIA_CEP_LOOKUPS_MAX", "30")?,
            cep_lookups_window_seconds: parse(&lookup, "FILIA_CEP_LOOKUPS_WINDOW_SECONDS", "600")?,
            ibge_url: lookup("FILIA_IBGE_URL")
                .unwrap_or_else(|| DEFAULT_IBGE_URL.into())
                .trim_end_matches('/')
                .to_string(),
            cities_lookups_max: parse(&lookup, "FILIA_CITIES_LOOKUPS_MAX", "30")?,
            cities_lookups_window_seconds: parse(
                &lookup,
                "FILIA_CITIES_LOOKUPS_WINDOW_SECONDS",
                "600",
            )?,
            support_max_per_station: parse(&lookup, "FILIA_SUPPORT_MAX_PER_STATION", "30")?,
        })
        .and_then(Self::checked)
    }

    fn checked(self) -> Result<Self, ConfigError> {
        if !(self.job_backoff_scale.is_finite() && self.job_backoff_scale > 0.0) {
            return Err(ConfigError {
                variable: "FILIA_JOB_BACKOFF_SCALE",
                reason: "must be a number greater than 0".into(),
            });
        }
        if self.job_poll_seconds == 0 {
            return Err(ConfigError {
                variable: "FILIA_JOB_POLL_SECONDS",
                reason: "must be at least 1".into(),
            });
        }
        // 0 would still let each address's first e-mail through (the cap counts after it).
        if self.confirmation_max_per_day == 0 {
            return Err(ConfigError {
                variable: "FILIA_CONFIRMATION_MAX_PER_DAY",
                reason: "must be at least 1".into(),
            });
        }
        if self.hold_seconds == 0 {
            return Err(ConfigError {
                variable: "FILIA_HOLD_SECONDS",
                reason: "must be at least 1".into(),
            });
        }
        for (variable, window) in [
            ("FILIA_ORDERS_WINDOW_SECONDS", self.orders_window_seconds),
            (
                "FILIA_CEP_LOOKUPS_WINDOW_SECONDS",
                self.cep_lookups_window_seconds,
            ),
            (
                "FILIA_CITIES_LOOKUPS_WINDOW_SECONDS",
                self.cities_lookups_window_seconds,
            ),
            (
                "FILIA_PAYMENT_CHECKS_WINDOW_SECONDS",
                self.payment_checks_window_seconds,
            ),
            (
                "FILIA_SANDBOX_CALLS_WINDOW_SECONDS",
                self.sandbox_calls_window_seconds,
            ),
        ] {
            // An expiry of 0 deletes the counter at once: the limit would never hold.
            if window == 0 {
                return Err(ConfigError {
                    variable,
                    reason: "must be at least 1".into(),
                });
            }
        }
        if self.payments_timeout_seconds == 0 {
            return Err(ConfigError {
                variable: "FILIA_PAYMENTS_TIMEOUT_SECONDS",
                reason: "must be at least 1".into(),
            });
        }
        if self.payments == PaymentsProvider::Pagarme {
            if self.pagarme_secret_key.is_none() {
                return Err(ConfigError {
                    variable: "FILIA_PAGARME_SECRET_KEY",
                    reason: "required when FILIA_PAYMENTS is pagarme".into(),
                });
            }
            // Whether the key reads as a PEM is the payments crate's check (`payments::check`).
            if self.pagarme_webhook_public_key.is_none() {
                return Err(ConfigError {
                    variable: "FILIA_PAGARME_WEBHOOK_PUBLIC_KEY",
                    reason: "required when FILIA_PAYMENTS is pagarme".into(),
                });
            }
            // A secret key here would be served to every browser by `GET /api/config`.
            if !self
                .pagarme_public_key
                .as_deref()
                .is_some_and(|key| key.starts_with("pk_"))
            {
                return Err(ConfigError {
                    variable: "FILIA_PAGARME_PUBLIC_KEY",
                    reason:
                        "required when FILIA_PAYMENTS is pagarme, and must be a public key (pk_...)"
                            .into(),
                });
            }
        }
        if self.captcha != CaptchaProvider::Off {
            if self.captcha_secret.is_none() {
                return Err(ConfigError {
                    variable: "FILIA_CAPTCHA_SECRET",
                    reason: "required when FILIA_CAPTCHA is not off".into(),
                });
            }
            if self.captcha_site_key.is_none() {
                return Err(ConfigError {
                    variable: "FILIA_CAPTCHA_SITE_KEY",
                    reason: "required when FILIA_CAPTCHA is not off".into(),
                });
            }
        }
        Ok(self)
    }

    /// Where the browser tokenises a new card, with Pagar.me only: its tokens endpoint and
    /// our public key as `appId` (the sandbox tokenises through our own API instead).
    pub fn card_tokenizer(&self) -> Option<CardTokenizer> {
        if self.payments != PaymentsProvider::Pagarme {
            return None;
        }
        Some(CardTokenizer {
            url: format!("{}/tokens", self.pagarme_url.trim_end_matches('/')),
            app_id: self.pagarme_public_key.clone()?,
        })
    }

    /// Whether the signing key is the public development one (`serve` refuses it behind an
    /// https public URL, i.e. anywhere real people reach).
    pub fn uses_development_signing_key(&self) -> bool {
        self.signing_key.expose_secret() == DEVELOPMENT_SIGNING_KEY
    }

    /// Whether members reach this deployment over https, i.e. it is anywhere real people
    /// are, not a laptop or a test run.
    fn is_public(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// Whether payments are make-believe here: the sandbox provider, or Pagar.me with its
    /// test keys. `GET /api/config` says so and the web app shows "Ambiente de testes".
    pub fn test_environment(&self) -> bool {
        match self.payments {
            PaymentsProvider::Sandbox => true,
            PaymentsProvider::Pagarme => self
                .pagarme_secret_key
                .as_ref()
                .is_some_and(|key| key.expose_secret().starts_with(PAGARME_TEST_KEY_PREFIX)),
        }
    }

    /// Why `serve` must not start, if it must not: behind an https public URL (anywhere
    /// real people reach) nothing may run with a secret published in this repository, and
    /// the sandbox, where every member can pay their own PIX with 'Simular pagamento', runs
    /// only on a deployment that says it is a test one (`FILIA_STAGING`). With the
    /// sandbox's development webhook secret anyone could sign a "paid" webhook.
    pub fn public_deployment_refusal(&self) -> Option<&'static str> {
        if !self.is_public() {
            return None;
        }
        if self.uses_development_signing_key() {
            return Some("FILIA_SIGNING_KEY must be set for a public (https) deployment");
        }
        if self.payments == PaymentsProvider::Sandbox {
            if !self.staging {
                return Some(
                    "FILIA_PAYMENTS=sandbox lets every member pay their own orders: a public (https) deployment needs FILIA_PAYMENTS=pagarme, or FILIA_STAGING=true if it is a test one",
                );
            }
            if self.sandbox_webhook_secret.expose_secret() == DEVELOPMENT_SANDBOX_WEBHOOK_SECRET {
                return Some(
                    "FILIA_SANDBOX_WEBHOOK_SECRET must be set for a public (https) deployment of the sandbox",
                );
            }
        }
        None
    }

    /// Why `api seed-demo` must not run, if it must not: it creates staff and members whose
    /// passwords the README publishes, so behind an https public URL only a deployment that
    /// says it is a test one (`FILIA_STAGING`) takes them.
    pub fn demo_seed_refusal(&self) -> Option<&'static str> {
        (self.is_public() && !self.staging).then_some(
            "api seed-demo creates accounts whose passwords are published: a public (https) deployment runs it only with FILIA_STAGING=true",
        )
    }
}

fn parse<T>(
    lookup: &impl Fn(&str) -> Option<String>,
    variable: &'static str,
    default: &str,
) -> Result<T, ConfigError>
where
    T: FromStr,
    T::Err: std::fmt::Display,
{
    let raw = lookup(variable).unwrap_or_else(|| default.to_string());
    raw.parse().map_err(|err: T::Err| ConfigError {
        variable,
        reason: err.to_string(),
    })
}

impl FromStr for PaymentsProvider {
    type Err = String;
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "sandbox" => Ok(Self::Sandbox),
            "pagarme" => Ok(Self::Pagarme),
            other => Err(format!("expected sandbox or pagarme, got {other:?}")),
        }
    }
}

/// Where Debian's `fonts-lato` package installs the font the PDFs are set in.
pub const DEFAULT_PDF_FONT_DIR: &str = "/usr/share/fonts/truetype/lato";
/// Pagar.me's API (v5).
pub const DEFAULT_PAGARME_URL: &str = "https://api.pagar.me/core/v5";
/// ViaCEP, free and keyless: `https://viacep.com.br/ws/{cep}/json/`.
pub const DEFAULT_CEP_URL: &str = "https://viacep.com.br/ws";
/// IBGE's public localities service, free and keyless:
/// `https://servicodados.ibge.gov.br/api/v1/localidades/estados/{UF}/municipios`.
pub const DEFAULT_IBGE_URL: &str = "https://servicodados.ibge.gov.br";
/// The station a host that matches none shows: the demo station `api seed-demo` creates.
pub const DEFAULT_STATION_SUBDOMAIN: &str = "demo";
/// Known to everyone who reads this file: fine for a laptop, never for production.
const DEVELOPMENT_SIGNING_KEY: &str = "filia-development-signing-key";
/// The sandbox is never production; still, a deployment can set its own.
const DEVELOPMENT_SANDBOX_WEBHOOK_SECRET: &str = "filia-sandbox-webhook-secret";
/// Pagar.me's test secret keys (its live ones are `sk_` and no `test_`).
const PAGARME_TEST_KEY_PREFIX: &str = "sk_test_";

impl FromStr for CaptchaProvider {
    type Err = String;
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "off" => Ok(Self::Off),
            "turnstile" => Ok(Self::Turnstile),
            other => Err(format!("expected off or turnstile, got {other:?}")),
        }
    }
}

impl FromStr for LogFormat {
    type Err = String;
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "text" => Ok(Self::Text),
            "json" => Ok(Self::Json),
            other => Err(format!("expected text or json, got {other:?}")),
        }
    }
}

impl FromStr for StationRef {
    type Err = String;
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        if let Ok(id) = value.parse::<i64>() {
            return Ok(Self::Id(id));
        }
        if crate::stations::station::is_valid_subdomain(value) {
            Ok(Self::Subdomain(value.to_string()))
        } else {
            Err(format!("expected a station id or subdomain, got {value:?}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|name| vars.get(name).cloned())
    }

    #[test]
    fn defaults_match_the_readme() {
        let config = config(&[]).expect("defaults are valid");
        assert_eq!(
            config.database_url.expose_secret(),
            "postgres://postgres@127.0.0.1:5432/filia"
        );
        assert_eq!(config.redis_url.expose_secret(), "redis://127.0.0.1:6379");
        assert_eq!(config.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(config.public_url, "http://127.0.0.1:8080");
        assert_eq!(config.data_dir, PathBuf::from("./data"));
        assert!(config.smtp_url.is_none());
        assert_eq!(config.payments, PaymentsProvider::Sandbox);
        assert_eq!(
            config.default_station,
            Some(StationRef::Subdomain("demo".into()))
        );
        assert_eq!(config.job_retention_succeeded_days, 14);
        assert_eq!(config.job_retention_failed_days, 90);
        assert_eq!(config.job_backoff_scale, 1.0);
        assert!(config.metrics_bind.is_none() && config.metrics_token.is_none());
        assert_eq!(config.confirmation_max_per_day, 10);
        assert_eq!(
            (
                config.activation_max_per_ip,
                config.activation_window_seconds
            ),
            (30, 900)
        );
        assert_eq!(config.job_poll_seconds, 1);
        assert_eq!(
            (
                config.orders_max_per_member,
                config.orders_window_seconds,
                config.payment_checks_max_per_member,
                config.payment_checks_window_seconds,
                config.sandbox_calls_max_per_member,
                config.sandbox_calls_window_seconds,
                config.payment_read_reuse_seconds,
            ),
            (10, 600, 20, 600, 30, 600, 5)
        );
        assert_eq!(config.upload_bytes_per_day, 50_000_000);
        assert!(!config.staging);
    }

    #[test]
    fn environment_overrides_defaults() {
        let config = config(&[
            ("FILIA_BIND", "0.0.0.0:9000"),
            ("FILIA_PUBLIC_URL", "https://clube.example.com.br/"),
            ("FILIA_DEFAULT_STATION", "42"),
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test"),
        ])
        .expect("valid overrides");
        assert_eq!(config.bind.port(), 9000);
        assert_eq!(config.public_url, "https://clube.example.com.br");
        assert_eq!(config.default_station, Some(StationRef::Id(42)));
        assert_eq!(config.payments, PaymentsProvider::Pagarme);
    }

    const TEST_PUBLIC_KEY: &str = include_str!("../../tests/fixtures/pagarme_test_public.pem");

    #[test]
    fn pagarme_needs_its_keys_and_never_prints_them() {
        assert_eq!(
            config(&[("FILIA_PAYMENTS", "pagarme")])
                .expect_err("no key")
                .variable,
            "FILIA_PAGARME_SECRET_KEY"
        );
        let err = config(&[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_live_hunter2"),
        ])
        .expect_err("no public key");
        assert_eq!(err.variable, "FILIA_PAGARME_WEBHOOK_PUBLIC_KEY");
        for browser_key in [None, Some("sk_live_hunter2")] {
            let mut vars = vec![
                ("FILIA_PAYMENTS", "pagarme"),
                ("FILIA_PAGARME_SECRET_KEY", "sk_live_hunter2"),
                ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
            ];
            vars.extend(browser_key.map(|key| ("FILIA_PAGARME_PUBLIC_KEY", key)));
            let err = config(&vars).expect_err("no browser key, or a secret one");
            assert_eq!(err.variable, "FILIA_PAGARME_PUBLIC_KEY");
            assert!(!err.to_string().contains("hunter2"));
        }
        let on = config(&[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_live_hunter2"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_live_abc"),
            ("FILIA_SANDBOX_WEBHOOK_SECRET", "whsec_s3cr3t"),
        ])
        .expect("complete");
        let printed = format!("{on:?}");
        assert!(!printed.contains("hunter2") && !printed.contains("s3cr3t"));
    }

    #[test]
    fn no_secret_of_the_configuration_prints() {
        let config = config(&[
            ("DATABASE_URL", "postgres://filia:db-hunter2@db/filia"),
            ("REDIS_URL", "redis://:redis-hunter2@cache:6379"),
            (
                "FILIA_SMTP_URL",
                "smtps://mailer:smtp-hunter2@relay.example.com",
            ),
            ("FILIA_SIGNING_KEY", "signing-hunter2"),
            ("FILIA_METRICS_TOKEN", "metrics-hunter2"),
            ("FILIA_SANDBOX_WEBHOOK_SECRET", "webhook-hunter2"),
            ("FILIA_CAPTCHA", "turnstile"),
            ("FILIA_CAPTCHA_SECRET", "captcha-hunter2"),
            ("FILIA_CAPTCHA_SITE_KEY", "site-key"),
        ])
        .expect("valid");
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
        assert_eq!(
            config.smtp_url.as_ref().map(ExposeSecret::expose_secret),
            Some("smtps://mailer:smtp-hunter2@relay.example.com")
        );
    }

    #[test]
    fn only_pagarme_has_a_browser_tokenizer() {
        assert_eq!(config(&[]).expect("sandbox").card_tokenizer(), None);
        let pagarme = config(&[
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_test"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_abc"),
        ])
        .expect("pagarme");
        let tokenizer = pagarme.card_tokenizer().expect("tokenizer");
        assert_eq!(tokenizer.url, "https://api.pagar.me/core/v5/tokens");
        assert_eq!(tokenizer.app_id, "pk_test_abc");
        assert_eq!(tokenizer.origin(), "https://api.pagar.me");
    }

    #[test]
    fn a_captcha_provider_needs_its_keys() {
        assert_eq!(config(&[]).expect("defaults").captcha, CaptchaProvider::Off);
        let err = config(&[("FILIA_CAPTCHA", "turnstile")]).expect_err("no secret");
        assert_eq!(err.variable, "FILIA_CAPTCHA_SECRET");
        let err = config(&[
            ("FILIA_CAPTCHA", "turnstile"),
            ("FILIA_CAPTCHA_SECRET", "s"),
        ])
        .expect_err("no site key");
        assert_eq!(err.variable, "FILIA_CAPTCHA_SITE_KEY");
        let on = config(&[
            ("FILIA_CAPTCHA", "turnstile"),
            ("FILIA_CAPTCHA_SECRET", "hunter2"),
            ("FILIA_CAPTCHA_SITE_KEY", "site"),
            ("FILIA_SIGNING_KEY", "a-long-random-production-key"),
        ])
        .expect("complete");
        assert_eq!(on.captcha, CaptchaProvider::Turnstile);
        assert!(!on.uses_development_signing_key());
        assert!(!format!("{on:?}").contains("hunter2"));
        assert!(!format!("{on:?}").contains("a-long-random-production-key"));
        assert!(
            config(&[])
                .expect("defaults")
                .uses_development_signing_key()
        );
    }

    #[test]
    fn a_public_deployment_refuses_the_published_secrets() {
        let https = ("FILIA_PUBLIC_URL", "https://clube.example.com");
        let key = ("FILIA_SIGNING_KEY", "a-long-random-production-key");
        let staging = ("FILIA_STAGING", "true");
        let local = config(&[]).expect("defaults");
        assert_eq!(
            local.public_deployment_refusal(),
            None,
            "development is fine"
        );
        let no_key = config(&[https, staging]).expect("config");
        assert!(
            no_key
                .public_deployment_refusal()
                .is_some_and(|why| why.contains("FILIA_SIGNING_KEY"))
        );
        let sandbox = config(&[https, key, staging]).expect("config");
        assert!(
            sandbox
                .public_deployment_refusal()
                .is_some_and(|why| why.contains("FILIA_SANDBOX_WEBHOOK_SECRET"))
        );
        let own_secret = config(&[
            https,
            key,
            staging,
            ("FILIA_SANDBOX_WEBHOOK_SECRET", "whsec_s3cr3t"),
        ])
        .expect("config");
        assert_eq!(own_secret.public_deployment_refusal(), None);
    }

    #[test]
    fn the_sandbox_behind_https_needs_the_staging_setting() {
        let public_sandbox = [
            ("FILIA_PUBLIC_URL", "https://clube.example.com"),
            ("FILIA_SIGNING_KEY", "a-long-random-production-key"),
            ("FILIA_SANDBOX_WEBHOOK_SECRET", "whsec_s3cr3t"),
        ];
        let refused = config(&public_sandbox).expect("config");
        assert!(!refused.staging, "off by default");
        assert!(
            refused
                .public_deployment_refusal()
                .is_some_and(|why| why.contains("FILIA_STAGING=true")),
            "{:?}",
            refused.public_deployment_refusal()
        );
        let mut vars = public_sandbox.to_vec();
        vars.push(("FILIA_STAGING", "false"));
        assert!(
            config(&vars)
                .expect("config")
                .public_deployment_refusal()
                .is_some()
        );
        let mut vars = public_sandbox.to_vec();
        vars.push(("FILIA_STAGING", "true"));
        let staging = config(&vars).expect("config");
        assert!(staging.staging);
        assert_eq!(staging.public_deployment_refusal(), None);
        // Pagar.me behind https needs no staging setting.
        let pagarme = config(&[
            ("FILIA_PUBLIC_URL", "https://clube.example.com"),
            ("FILIA_SIGNING_KEY", "a-long-random-production-key"),
            ("FILIA_PAYMENTS", "pagarme"),
            ("FILIA_PAGARME_SECRET_KEY", "sk_live"),
            ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
            ("FILIA_PAGARME_PUBLIC_KEY", "pk_live"),
        ])
        .expect("config");
        assert_eq!(pagarme.public_deployment_refusal(), None);
        let err = config(&[("FILIA_STAGING", "yes")]).expect_err("not a boolean");
        assert_eq!(err.variable, "FILIA_STAGING");
    }

    #[test]
    fn the_demo_seed_behind_https_needs_the_staging_setting() {
        assert_eq!(config(&[]).expect("local").demo_seed_refusal(), None);
        let https = ("FILIA_PUBLIC_URL", "https://clube.example.com");
        assert!(
            config(&[https])
                .expect("public")
                .demo_seed_refusal()
                .is_some_and(|why| why.contains("FILIA_STAGING=true"))
        );
        let staging = config(&[https, ("FILIA_STAGING", "true")]).expect("staging");
        assert_eq!(staging.demo_seed_refusal(), None);
    }

    #[test]
    fn test_payments_make_a_test_environment() {
        assert!(config(&[]).expect("sandbox").test_environment());
        let pagarme = |secret: &'static str| {
            config(&[
                ("FILIA_PAYMENTS", "pagarme"),
                ("FILIA_PAGARME_SECRET_KEY", secret),
                ("FILIA_PAGARME_WEBHOOK_PUBLIC_KEY", TEST_PUBLIC_KEY),
                ("FILIA_PAGARME_PUBLIC_KEY", "pk_test_abc"),
            ])
            .expect("pagarme")
        };
        assert!(pagarme("sk_test_abc").test_environment());
        assert!(!pagarme("sk_abc").test_environment());
    }

    #[test]
    fn bad_values_name_the_variable() {
        let err = config(&[("FILIA_BIND", "nowhere")]).expect_err("bad bind address");
        assert_eq!(err.variable, "FILIA_BIND");
        let err = config(&[("FILIA_METRICS_BIND", "9187")]).expect_err("no host");
        assert_eq!(err.variable, "FILIA_METRICS_BIND");
        let err = config(&[("FILIA_PAYMENTS", "cash")]).expect_err("unknown provider");
        assert_eq!(err.variable, "FILIA_PAYMENTS");
        for scale in ["0", "-1", "NaN", "inf", "slow"] {
            let err = config(&[("FILIA_JOB_BACKOFF_SCALE", scale)]).expect_err(scale);
            assert_eq!(err.variable, "FILIA_JOB_BACKOFF_SCALE", "{scale}");
        }
        for poll in ["0", "-1", "0.5"] {
            let err = config(&[("FILIA_JOB_POLL_SECONDS", poll)]).expect_err(poll);
            assert_eq!(err.variable, "FILIA_JOB_POLL_SECONDS", "{poll}");
        }
        for window in [
            "FILIA_ORDERS_WINDOW_SECONDS",
            "FILIA_PAYMENT_CHECKS_WINDOW_SECONDS",
            "FILIA_SANDBOX_CALLS_WINDOW_SECONDS",
        ] {
            let err = config(&[(window, "0")]).expect_err(window);
            assert_eq!(err.variable, window);
        }
        for cap in ["0", "-1", "many"] {
            let err = config(&[("FILIA_CONFIRMATION_MAX_PER_DAY", cap)]).expect_err(cap);
            assert_eq!(err.variable, "FILIA_CONFIRMATION_MAX_PER_DAY", "{cap}");
        }
    }

    #[test]
    fn debug_output_hides_urls_with_credentials() {
        let config = config(&[
            ("DATABASE_URL", "postgres://app:s3cret@db/filia"),
            ("FILIA_SMTP_URL", "smtp://mailer:p4ss@relay:587"),
        ])
        .expect("valid");
        let printed = format!("{config:?}");
        assert!(!printed.contains("s3cret") && !printed.contains("p4ss"));
    }
}
