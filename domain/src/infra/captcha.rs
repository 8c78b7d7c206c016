//! Human verification of public forms. A [`CaptchaVerifier`] checks the token the web
//! widget produced: [`Off`] lets everything through (development, tests), [`Turnstile`]
//! asks Cloudflare's siteverify endpoint.

use std::fmt::Debug;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use crate::infra::config::{CaptchaProvider, Config};
use secrecy::{ExposeSecret, SecretString};

/// Cloudflare Turnstile's server-side check.
pub const TURNSTILE_VERIFY_URL: &str = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/// What a form shows when the captcha does not pass.
pub const FAILED_MESSAGE: &str = "Verificação de segurança inválida. Tente novamente.";

/// The provider could not be asked (network, timeout, an answer that is not its JSON).
#[derive(Debug, thiserror::Error)]
#[error("captcha provider unavailable: {0}")]
pub struct CaptchaUnavailable(String);

pub type VerifyFuture<'a> =
    Pin<Box<dyn Future<Output = Result<bool, CaptchaUnavailable>> + Send + 'a>>;

pub trait CaptchaVerifier: Debug + Send + Sync {
    /// Whether the form's token is a fresh human pass. An empty token is never one.
    fn verify<'a>(&'a self, token: &'a str, remote_ip: Option<IpAddr>) -> VerifyFuture<'a>;

    /// False for [`Off`]: forms then neither require nor check the token.
    fn is_enabled(&self) -> bool;
}

/// The verifier the configuration asks for.
pub fn from_config(config: &Config) -> Arc<dyn CaptchaVerifier> {
    match (config.captcha, &config.captcha_secret) {
        (CaptchaProvider::Turnstile, Some(secret)) => Arc::new(Turnstile::new(
            secret.clone(),
            config.captcha_verify_url.clone(),
        )),
        // `Config` refuses Turnstile without a secret, so this is `Off`.
        _ => Arc::new(Off),
    }
}

/// Whether a form's captcha passes: always when the verifier is off, else the token must be
/// a fresh human pass. A provider that cannot be asked fails the form (logged), so an outage
/// never opens the forms to bots.
pub async fn passes(
    verifier: &dyn CaptchaVerifier,
    token: Option<&str>,
    ip: Option<IpAddr>,
) -> bool {
    if !verifier.is_enabled() {
        return true;
    }
    match verifier.verify(token.unwrap_or_default(), ip).await {
        Ok(passed) => passed,
        Err(err) => {
            tracing::warn!(error = %err, "captcha check failed");
            false
        }
    }
}

/// Every token passes: the widget is not shown at all.
#[derive(Debug, Clone, Copy)]
pub struct Off;

impl CaptchaVerifier for Off {
    fn verify<'a>(&'a self, _token: &'a str, _remote_ip: Option<IpAddr>) -> VerifyFuture<'a> {
        Box::pin(async { Ok(true) })
    }

    fn is_enabled(&self) -> bool {
        false
    }
}

#[derive(Debug, Clone)]
pub struct Turnstile {
    secret: SecretString,
    verify_url: String,
    http: reqwest::Client,
}

#[derive(Debug, Deserialize)]
struct SiteverifyAnswer {
    success: bool,
}

impl Turnstile {
    pub fn new(secret: SecretString, verify_url: String) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self {
            secret,
            verify_url,
            http,
        }
    }

    async fn ask(
        &self,
        token: &str,
        remote_ip: Option<IpAddr>,
    ) -> Result<bool, CaptchaUnavailable> {
        let unavailable = |err: reqwest::Error| CaptchaUnavailable(err.to_string());
        let mut form = vec![
            ("secret", self.secret.expose_secret().to_string()),
            ("response", token.to_string()),
        ];
        if let Some(ip) = remote_ip {
            form.push(("remoteip", ip.to_string()));
        }
        let answer: SiteverifyAnswer = self
            .http
            .post(&self.verify_url)
            .form(&form)
            .send()
            .await
            .map_err(unavailable)?
            .error_for_status()
            .map_err(unavailable)?
            .json()
            .await
            .map_err(unavailable)?;
        Ok(answer.success)
    }
}

impl CaptchaVerifier for Turnstile {
    fn verify<'a>(&'a self, token: &'a str, remote_ip: Option<IpAddr>) -> VerifyFuture<'a> {
        Box::pin(async move {
            let token = token.trim();
            // Turnstile tokens are at most 2048 characters; anything else is not one.
            if token.is_empty() || token.len() > 2048 {
                return Ok(false);
            }
            self.ask(token, remote_ip).await
        })
    }

    fn is_enabled(&self) -> bool {
        true
    }
}
