//! E-mail: station-branded messages rendered as HTML and plain text, and their delivery.
//! [`OutgoingMail`] is plain data a job can carry; [`Mailer`] delivers it through the SMTP
//! relay in `FILIA_SMTP_URL`, or writes it as an `.eml` file when none is configured.

mod mailer;
mod template;

use lettre::Message;
use lettre::message::{Mailbox, MultiPart};
use serde::{Deserialize, Serialize};

pub use mailer::{MailError, Mailer};
pub use template::{Branding, Button, Notice};
use template::{render_html, render_text};

/// The local part of every sender address; members are not expected to answer.
const NO_REPLY: &str = "nao-responda";
/// The sender domain when the public URL has no host name of its own (an IP address).
const FALLBACK_DOMAIN: &str = "filia.local";

/// A rendered message, ready to send. Addresses are `Nome <email@dominio>` or a bare address,
/// checked when the message is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutgoingMail {
    pub from: String,
    pub to: String,
    pub subject: String,
    /// Empty when read back from a delivered `mail.send` job, which no longer holds it.
    #[serde(default)]
    pub html: String,
    #[serde(default)]
    pub text: String,
}

impl OutgoingMail {
    /// A [`Notice`] in the station's layout, sent in the station's name.
    pub fn notice(
        branding: &Branding,
        to: impl Into<String>,
        subject: impl Into<String>,
        notice: &Notice,
    ) -> Self {
        let subject = subject.into();
        Self {
            from: branding.sender.clone(),
            to: to.into(),
            html: render_html(branding, &subject, notice),
            text: render_text(branding, notice),
            subject,
        }
    }

    /// The MIME message: `multipart/alternative` with the plain text first, so clients that
    /// can show HTML pick the last part.
    fn to_message(&self) -> Result<Message, MailError> {
        let address = |role: &'static str, value: &str| {
            value
                .parse::<Mailbox>()
                .map_err(|reason| MailError::InvalidAddress { role, reason })
        };
        Message::builder()
            .from(address("sender", &self.from)?)
            .to(address("recipient", &self.to)?)
            .subject(&self.subject)
            .message_id(None)
            .multipart(MultiPart::alternative_plain_html(
                self.text.clone(),
                self.html.clone(),
            ))
            .map_err(MailError::Message)
    }
}

/// `"Station name" <nao-responda@host>`, quoted as RFC 5322 requires.
fn sender(station_name: &str, public_url: &str) -> String {
    let domain = url::Url::parse(public_url)
        .ok()
        .and_then(|url| match url.host() {
            Some(url::Host::Domain(host)) => Some(host.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| FALLBACK_DOMAIN.to_string());
    let address = lettre::Address::new(NO_REPLY, &domain)
        .or_else(|_| lettre::Address::new(NO_REPLY, FALLBACK_DOMAIN))
        .expect("the fallback sender address is valid");
    Mailbox::new(Some(station_name.to_string()), address).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branding(logo: Option<&str>) -> Branding {
        Branding::new(
            "Clube São João, Ltda.",
            logo,
            "#C0392B",
            "https://sao-joao.filia.com.br",
        )
    }

    fn notice() -> Notice {
        Notice {
            heading: "Recupere sua senha".into(),
            paragraphs: vec!["Recebemos um pedido para trocar sua senha.".into()],
            button: Some(Button {
                label: "Criar nova senha".into(),
                url: "https://sao-joao.filia.com.br/senha?token=abc".into(),
            }),
        }
    }

    #[test]
    fn notice_renders_both_bodies_with_the_station_branding() {
        let mail = OutgoingMail::notice(
            &branding(Some("/brand/sao-joao/logo.png")),
            "maria@example.com",
            "Recuperação de senha",
            &notice(),
        );
        assert_eq!(mail.to, "maria@example.com");
        assert_eq!(mail.subject, "Recuperação de senha");
        assert!(mail.html.contains("<title>Recuperação de senha</title>"));
        assert!(mail.html.contains("#C0392B"));
        assert!(
            mail.html
                .contains(r#"src="https://sao-joao.filia.com.br/brand/sao-joao/logo.png""#)
        );
        assert!(mail.html.contains(r#"alt="Clube São João, Ltda.""#));
        assert!(
            mail.html
                .contains(r#"href="https://sao-joao.filia.com.br/senha?token=abc""#)
        );
        assert!(mail.html.contains(">Criar nova senha</a>"));
        assert!(mail.text.contains("Recupere sua senha"));
        assert!(
            mail.text
                .contains("Criar nova senha: https://sao-joao.filia.com.br/senha?token=abc")
        );
        assert!(mail.text.contains("Clube São João, Ltda."));
    }

    #[test]
    fn absolute_logo_urls_are_kept_and_a_bad_colour_falls_back() {
        let branding = Branding::new(
            "Clube",
            Some("https://cdn.example.com/logo.png"),
            "red;background:url(x)",
            "http://127.0.0.1:8080",
        );
        assert_eq!(
            branding.logo_url.as_deref(),
            Some("https://cdn.example.com/logo.png")
        );
        assert_eq!(branding.color, "#0E7C66");
        assert_eq!(self::branding(None).logo_url, None);
    }

    #[test]
    fn sender_is_the_station_at_the_public_host() {
        let from = sender("Clube São João, Ltda.", "https://sao-joao.filia.com.br/");
        let mailbox: Mailbox = from.parse().expect("the sender parses back");
        assert_eq!(mailbox.name.as_deref(), Some("Clube São João, Ltda."));
        assert_eq!(
            mailbox.email.to_string(),
            "nao-responda@sao-joao.filia.com.br"
        );
    }

    #[test]
    fn sender_falls_back_when_the_public_url_has_no_host_name() {
        for public_url in ["http://127.0.0.1:8080", "http://[::1]:8080", "not a url"] {
            let mailbox: Mailbox = sender("Clube \"Azul\"", public_url)
                .parse()
                .expect("the sender parses back");
            assert_eq!(mailbox.email.to_string(), "nao-responda@filia.local");
            assert_eq!(mailbox.name.as_deref(), Some("Clube \"Azul\""));
        }
    }

    #[test]
    fn serde_round_trip_keeps_the_message() {
        let mail = OutgoingMail::notice(
            &branding(None),
            "Maria <maria@example.com>",
            "Olá",
            &notice(),
        );
        let json = serde_json::to_string(&mail).expect("serialize");
        let back: OutgoingMail = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back, mail);
    }

    #[test]
    fn message_is_multipart_alternative_with_both_parts() {
        let mail = OutgoingMail::notice(&branding(None), "maria@example.com", "Olá", &notice());
        let message = mail.to_message().expect("valid message");
        let raw = String::from_utf8(message.formatted()).expect("utf-8");
        assert!(raw.contains("multipart/alternative"));
        assert!(raw.contains("text/plain"));
        assert!(raw.contains("text/html"));
        assert!(raw.contains("Message-ID: <"));
    }

    #[test]
    fn a_line_break_in_the_subject_cannot_add_a_header() {
        let mail = OutgoingMail::notice(
            &branding(None),
            "maria@example.com",
            "Oi\r\nBcc: intruso@example.com",
            &notice(),
        );
        let message = mail.to_message().expect("valid message");
        let raw = String::from_utf8(message.formatted()).expect("utf-8");
        let (headers, _) = raw.split_once("\r\n\r\n").expect("a header block");
        assert!(!headers.contains("\r\nBcc:"), "{headers}");
        assert!(
            !message
                .envelope()
                .to()
                .iter()
                .any(|to| to.to_string().contains("intruso"))
        );
    }

    #[test]
    fn invalid_addresses_are_permanent_errors() {
        let mail = OutgoingMail {
            to: "maria-sem-arroba".into(),
            ..OutgoingMail::notice(&branding(None), "", "Olá", &notice())
        };
        let err = mail.to_message().expect_err("invalid recipient");
        assert!(matches!(
            err,
            MailError::InvalidAddress {
                role: "recipient",
                ..
            }
        ));
        assert!(!err.is_transient());
    }
}
