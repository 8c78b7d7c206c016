//! Delivery. With `FILIA_SMTP_URL` set, messages go through that relay (`smtp://` plain or
//! `?tls=required` for STARTTLS, `smtps://` for implicit TLS, `user:pass@` for AUTH); unset,
//! each message is written as `{uuid}.eml` under `{FILIA_DATA_DIR}/mail` for development.
//! The URL carries credentials, so it never reaches a log line or an error message.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use lettre::address::AddressError;
use lettre::transport::{file, smtp};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::OutgoingMail;
use crate::infra::config::Config;

/// Bounds connecting and every SMTP command, so a stuck relay fails the job instead of
/// holding a worker.
const SMTP_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct Mailer {
    transport: Transport,
}

#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Files {
        dir: PathBuf,
        transport: AsyncFileTransport<Tokio1Executor>,
    },
}

/// Why a message was not delivered, split by what a retry can change.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The sender or the recipient is not an e-mail address.
    #[error("invalid {role} address: {reason}")]
    InvalidAddress {
        role: &'static str,
        reason: AddressError,
    },
    #[error("could not build the message: {0}")]
    Message(lettre::error::Error),
    /// The server answered with a 5xx reply (unknown mailbox, message refused, ...).
    #[error("the mail server refused the message: {0}")]
    Rejected(smtp::Error),
    /// No answer, a dropped connection, a TLS failure, a timeout or a 4xx reply.
    #[error("the mail server is unreachable or deferred the message: {0}")]
    Unavailable(smtp::Error),
    #[error("could not write the message file: {0}")]
    File(file::Error),
}

impl MailError {
    /// Whether sending the same message later may succeed. Only a 5xx reply or a message that
    /// cannot be built is final; anything about the server or the network may pass, and a
    /// misconfigured relay is fixed by the operator, not by the message.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Unavailable(_) | Self::File(_))
    }
}

impl From<smtp::Error> for MailError {
    fn from(err: smtp::Error) -> Self {
        if err.is_permanent() {
            Self::Rejected(err)
        } else {
            Self::Unavailable(err)
        }
    }
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let transport = match &config.smtp_url {
            Some(url) => {
                // lettre's errors name the scheme or the parse failure, never the URL itself.
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                    .map_err(|err| anyhow::anyhow!("FILIA_SMTP_URL is not usable: {err}"))?
                    .timeout(Some(SMTP_TIMEOUT))
                    .build();
                tracing::info!("e-mail is sent through the SMTP relay in FILIA_SMTP_URL");
                Transport::Smtp(transport)
            }
            None => {
                let dir = config.data_dir.join("mail");
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating the mail folder {}", dir.display()))?;
                tracing::info!(dir = %dir.display(), "FILIA_SMTP_URL unset: e-mail is written as files");
                Transport::Files {
                    transport: AsyncFileTransport::new(&dir),
                    dir,
                }
            }
        };
        Ok(Self { transport })
    }

    pub async fn send(&self, mail: &OutgoingMail) -> Result<(), MailError> {
        let message = mail.to_message()?;
        match &self.transport {
            Transport::Smtp(transport) => {
                transport.send(message).await?;
            }
            Transport::Files { transport, .. } => {
                transport.send(message).await.map_err(MailError::File)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Mailer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.transport {
            Transport::Smtp(_) => f.write_str("Mailer(smtp)"),
            Transport::Files { dir, .. } => write!(f, "Mailer(files in {})", dir.display()),
        }
    }
}
