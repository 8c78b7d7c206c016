//! Delivery. With `FILIA_SMTP_URL` set, messages go through that relay (`smtp://` plain or
//! `?tls=required` for STARTTLS, `smtps://` for implicit TLS, `user:pass@` for AUTH); unset,
//! each message is written as `{uuid}.eml` under `{FILIA_DATA_DIR}/mail` for development.
//! The URL carries credentials, so it never reaches a log line or an error message.

use secrecy::ExposeSecret;
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
    /// Nothing was handed over: no connection (refused, timed out, no such host), a TLS
    /// failure, a 4xx reply, or the client's own refusal before a command went out.
    #[error("the mail server is unreachable or deferred the message: {0}")]
    Unavailable(smtp::Error),
    /// The conversation broke off once under way (a dropped connection, a reply that never
    /// came or could not be read): the server may have taken the message before it went.
    #[error("the conversation with the mail server broke off: {0}")]
    Interrupted(smtp::Error),
    #[error("could not write the message file: {0}")]
    File(file::Error),
}

impl MailError {
    /// Whether sending the same message later may succeed, nothing having gone out. Only a
    /// 5xx reply or a message that cannot be built is final; anything about the server or
    /// the network may pass, and a misconfigured relay is fixed by the operator, not by the
    /// message.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Unavailable(_) | Self::File(_))
    }

    /// Whether the message may have reached the server all the same: sending it again
    /// could deliver a second copy.
    pub fn may_have_been_delivered(&self) -> bool {
        matches!(self, Self::Interrupted(_))
    }
}

impl From<smtp::Error> for MailError {
    fn from(err: smtp::Error) -> Self {
        if err.is_permanent() {
            Self::Rejected(err)
        } else if err.is_transient() || err.is_tls() || err.is_client() || never_connected(&err) {
            // A reply is the server's word that it did not take the message; TLS is set up
            // and the client's checks are made before any command about the message.
            Self::Unavailable(err)
        } else {
            Self::Interrupted(err)
        }
    }
}

/// lettre's connection errors (refused, timed out, unresolved: nothing was ever said to
/// the server) have no predicate of their own, and their source is the same `io::Error`
/// a connection dropped mid-conversation gives; only their text tells them apart. The
/// tests below hold that reading against the pinned lettre.
fn never_connected(err: &smtp::Error) -> bool {
    err.to_string().starts_with("Connection error")
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let transport = match &config.smtp_url {
            Some(url) => {
                // lettre's errors name the scheme or the parse failure, never the URL itself.
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())
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

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::TcpListener;

    use super::*;

    fn mailer(port: u16) -> Mailer {
        let url = format!("smtp://127.0.0.1:{port}");
        let config = Config::from_lookup(|name| (name == "FILIA_SMTP_URL").then(|| url.clone()))
            .expect("configuration");
        Mailer::from_config(&config).expect("mailer")
    }

    fn mail() -> OutgoingMail {
        OutgoingMail {
            from: "clube@example.com".into(),
            to: "ana@example.com".into(),
            subject: "Seu código".into(),
            html: "<p>482913</p>".into(),
            text: "482913".into(),
        }
    }

    /// A server for one conversation that answers RCPT with `rcpt_reply` and, once it has
    /// the message's data, hangs up without a word instead of answering.
    async fn server(rcpt_reply: &'static str) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("address").port();
        tokio::spawn(async move {
            let (stream, _) = listener.accept().await.expect("accept");
            let (reader, mut writer) = stream.into_split();
            let mut lines = BufReader::new(reader).lines();
            writer
                .write_all(b"220 test ESMTP\r\n")
                .await
                .expect("greet");
            let mut in_data = false;
            while let Ok(Some(line)) = lines.next_line().await {
                let reply = match line.split_whitespace().next().unwrap_or_default() {
                    _ if in_data && line == "." => return,
                    _ if in_data => continue,
                    "EHLO" => "250 test",
                    "RCPT" => rcpt_reply,
                    "DATA" => {
                        in_data = true;
                        "354 go ahead"
                    }
                    "QUIT" => "221 bye",
                    _ => "250 ok",
                };
                writer
                    .write_all(format!("{reply}\r\n").as_bytes())
                    .await
                    .expect("reply");
            }
        });
        port
    }

    #[tokio::test]
    async fn a_server_that_is_not_there_took_nothing() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("free port")
            .port();
        let err = mailer(port)
            .send(&mail())
            .await
            .expect_err("nobody listens");
        assert!(matches!(err, MailError::Unavailable(_)), "{err:?}");
        assert!(err.is_transient() && !err.may_have_been_delivered());
    }

    #[tokio::test]
    async fn a_deferring_reply_took_nothing() {
        let port = server("451 4.3.0 try again later").await;
        let err = mailer(port).send(&mail()).await.expect_err("deferred");
        assert!(matches!(err, MailError::Unavailable(_)), "{err:?}");
        assert!(err.is_transient() && !err.may_have_been_delivered());
    }

    #[tokio::test]
    async fn a_conversation_cut_after_the_message_may_have_delivered_it() {
        let port = server("250 ok").await;
        let err = mailer(port).send(&mail()).await.expect_err("no reply");
        assert!(matches!(err, MailError::Interrupted(_)), "{err:?}");
        assert!(err.may_have_been_delivered() && !err.is_transient());
    }
}
