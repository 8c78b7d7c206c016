//! What a top-up tells its member by e-mail, in the station's layout: its points credited,
//! or a transfer request expired unconfirmed. Each comes with its once-key, so however often
//! the change is applied the member gets one message.

use sqlx::PgConnection;

use super::{Method, TopUp};
use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::shared::money::format_brl;
use crate::stations::station;

pub const CREDITED_SUBJECT: &str = "Créditos adicionados à sua carteira";
pub const EXPIRED_SUBJECT: &str = "Pedido de transferência expirado";

/// The member's statement, where a credited top-up shows.
pub const STATEMENT_PATH: &str = "/homepage/extrato/extratos-totais";
/// Where a member tops up again.
pub const TOP_UP_PATH: &str = "/homepage/meios-de-pagamento/comprar";

/// Which message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Credited,
    TransferExpired,
}

/// The message and its once-key; `None` when the member has no e-mail address.
pub async fn render(
    conn: &mut PgConnection,
    topup: &TopUp,
    kind: Kind,
    public_url: &str,
) -> sqlx::Result<Option<(Mail, String)>> {
    let Some(station) = station::find(&mut *conn, topup.station_id).await? else {
        return Ok(None);
    };
    let email: Option<String> = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(topup.user_id)
        .fetch_one(&mut *conn)
        .await?;
    let Some(email) = email.filter(|e| !e.trim().is_empty()) else {
        return Ok(None);
    };
    let base = station.url.trim_end_matches('/');
    let amount = format_brl(topup.amount);
    let how = match topup.method {
        Method::Pix => "por PIX",
        Method::Card => "por cartão",
        Method::Transfer => "por transferência bancária",
    };
    let (subject, notice, key) = match kind {
        Kind::Credited => (
            CREDITED_SUBJECT,
            Notice {
                heading: CREDITED_SUBJECT.into(),
                paragraphs: vec![format!(
                    "Sua recarga de {amount} {how} foi confirmada e os créditos já estão na sua carteira."
                )],
                button: Some(Button {
                    label: "Ver extrato".into(),
                    url: format!("{base}{STATEMENT_PATH}"),
                }),
            },
            format!("topup-credited:{}", topup.id),
        ),
        Kind::TransferExpired => (
            EXPIRED_SUBJECT,
            Notice {
                heading: EXPIRED_SUBJECT.into(),
                paragraphs: vec![
                    format!(
                        "Seu pedido de transferência de {amount} expirou sem a confirmação do pagamento."
                    ),
                    "Se você já transferiu, fale com o suporte do programa. Para recarregar, faça um novo pedido.".into(),
                ],
                button: Some(Button {
                    label: "Fazer novo pedido".into(),
                    url: format!("{base}{TOP_UP_PATH}"),
                }),
            },
            format!("topup-expired:{}", topup.id),
        ),
    };
    let branding = Branding::of(&station, public_url);
    let mail = Mail {
        mail: OutgoingMail::notice(&branding, email, subject, &notice),
        station_id: topup.station_id,
        user_id: Some(topup.user_id),
        about: ("topup", topup.id),
    };
    Ok(Some((mail, key)))
}
