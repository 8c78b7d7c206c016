//! What a support message sends, in the station's layout: the message to the station's
//! contact address, its acknowledgement to the sender, staff's answer to the sender. Each
//! comes with its once-key, so however often its change is applied each goes once.

use super::SupportMessage;
use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::stations::station::Station;

pub const RECEIVED_SUBJECT: &str = "Recebemos sua mensagem";
/// Where staff answer it (`web/src/features/staff`).
pub const CONSOLE_PATH: &str = "/ops/suporte";

fn mail(
    station: &Station,
    public_url: &str,
    message: &SupportMessage,
    to: String,
    subject: String,
    notice: Notice,
    user_id: Option<i64>,
) -> Mail {
    Mail {
        mail: OutgoingMail::notice(&Branding::of(station, public_url), to, subject, &notice),
        station_id: message.station_id,
        user_id,
        about: ("support_message", message.id),
    }
}

/// The message for the station's staff at `to` (the station's `contact_mail`): who wrote,
/// how to reach them, what, and where to answer. Owned by the station alone: the sender
/// does not follow the station's copy.
pub fn to_station(
    station: &Station,
    public_url: &str,
    message: &SupportMessage,
    to: &str,
) -> (Mail, String) {
    let sender = match &message.phone {
        Some(phone) => format!("{} ({}, telefone {phone})", message.name, message.email),
        None => format!("{} ({})", message.name, message.email),
    };
    let kind = if message.user_id.is_some() {
        "membro"
    } else {
        "visitante"
    };
    let notice = Notice {
        heading: "Nova mensagem de suporte".into(),
        paragraphs: vec![
            format!("{sender}, {kind}, escreveu pelo Fale conosco:"),
            format!("Assunto: {}", message.subject),
            message.message.clone(),
        ],
        button: Some(Button {
            label: "Responder no console".into(),
            url: format!(
                "{}{CONSOLE_PATH}?station_id={}",
                public_url.trim_end_matches('/'),
                message.station_id
            ),
        }),
    };
    let subject = format!("Fale conosco: {}", message.subject);
    (
        mail(
            station,
            public_url,
            message,
            to.to_string(),
            subject,
            notice,
            None,
        ),
        format!("support:{}:station", message.id),
    )
}

/// The acknowledgement to the sender's address. It carries none of the sender's words (name,
/// subject, message): anyone may give any address, and the station's e-mail must not carry
/// their text to it. The protocol number ties it to the message staff see.
pub fn received(station: &Station, public_url: &str, message: &SupportMessage) -> (Mail, String) {
    let notice = Notice {
        heading: RECEIVED_SUBJECT.into(),
        paragraphs: vec![
            format!(
                "Recebemos sua mensagem (protocolo nº {}) e responderemos neste e-mail assim que possível.",
                message.id
            ),
            "Se você não escreveu para nós, ignore este e-mail.".into(),
        ],
        button: None,
    };
    (
        mail(
            station,
            public_url,
            message,
            message.email.clone(),
            RECEIVED_SUBJECT.into(),
            notice,
            message.user_id,
        ),
        format!("support:{}:received", message.id),
    )
}

/// Staff's answer to the sender, quoting the message it answers.
pub fn answered(station: &Station, public_url: &str, message: &SupportMessage) -> (Mail, String) {
    let notice = Notice {
        heading: format!("Resposta: {}", message.subject),
        paragraphs: vec![
            format!("Olá, {}.", message.name),
            message.answer.clone().unwrap_or_default(),
            "Sua mensagem:".into(),
            message.message.clone(),
        ],
        button: None,
    };
    (
        mail(
            station,
            public_url,
            message,
            message.email.clone(),
            format!("Resposta: {}", message.subject),
            notice,
            message.user_id,
        ),
        format!("support:{}:answer", message.id),
    )
}
