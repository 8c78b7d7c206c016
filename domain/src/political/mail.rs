//! What a suggestion sends, in the station's layout: the suggestion to the political desk's
//! address and its acknowledgement to the member. Each comes with its once-key, so however
//! often the request is applied each goes once.

use super::{Author, Suggestion};
use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Notice, OutgoingMail};
use crate::stations::station::Station;

pub const TO_DESK_SUBJECT: &str = "Nova sugestão de tema";
pub const RECEIVED_SUBJECT: &str = "Recebemos sua sugestão de tema";

fn mail(
    station: &Station,
    public_url: &str,
    suggestion: &Suggestion,
    to: String,
    subject: &str,
    notice: Notice,
    user_id: Option<i64>,
) -> Mail {
    Mail {
        mail: OutgoingMail::notice(&Branding::of(station, public_url), to, subject, &notice),
        station_id: suggestion.station_id,
        user_id,
        about: ("political_suggestion", suggestion.id),
    }
}

/// The suggestion for the political desk at `to`: who wrote and what. The desk's alone:
/// the member does not follow it.
pub fn to_desk(
    station: &Station,
    public_url: &str,
    suggestion: &Suggestion,
    author: &Author,
    to: &str,
) -> (Mail, String) {
    let sender = match &author.email {
        Some(email) => format!("{} ({email})", author.name),
        None => author.name.clone(),
    };
    let notice = Notice {
        heading: TO_DESK_SUBJECT.into(),
        paragraphs: vec![
            format!("{sender} sugeriu um tema pela página Político-sindical:"),
            suggestion.description.clone(),
            format!("Protocolo nº {}.", suggestion.id),
        ],
        button: None,
    };
    (
        mail(
            station,
            public_url,
            suggestion,
            to.to_string(),
            TO_DESK_SUBJECT,
            notice,
            None,
        ),
        format!("political_suggestion:{}:desk", suggestion.id),
    )
}

/// The acknowledgement to the member's address.
pub fn received(
    station: &Station,
    public_url: &str,
    suggestion: &Suggestion,
    author: &Author,
    to: &str,
) -> (Mail, String) {
    let notice = Notice {
        heading: RECEIVED_SUBJECT.into(),
        paragraphs: vec![
            format!("Olá, {}.", author.name),
            format!(
                "Recebemos sua sugestão de tema (protocolo nº {}). A equipe político-sindical vai analisá-la.",
                suggestion.id
            ),
            "Sua sugestão:".into(),
            suggestion.description.clone(),
        ],
        button: None,
    };
    (
        mail(
            station,
            public_url,
            suggestion,
            to.to_string(),
            RECEIVED_SUBJECT,
            notice,
            suggestion.user_id,
        ),
        format!("political_suggestion:{}:received", suggestion.id),
    )
}
