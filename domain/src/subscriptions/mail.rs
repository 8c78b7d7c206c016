//! What the billing engine tells a member by e-mail, in the station's layout
//! (`infra::mail`): a paid period's receipt, a declined renewal with the link to change the
//! card, the subscription ended after its last try, a PIX renewal to pay, and a saved card
//! about to expire. Each comes with its once-key, so however often an answer is applied the
//! member gets one message.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::BillingMethod;
use super::billing::{Billable, Notice};
use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Button, Notice as MailNotice, OutgoingMail};
use crate::shared::money::format_brl;
use crate::shared::time::zone_named;
use crate::stations::station::{self, Station};

pub const RECEIPT_SUBJECT: &str = "Pagamento da assinatura confirmado";
pub const DECLINED_SUBJECT: &str = "Pagamento da assinatura recusado";
pub const ENDED_SUBJECT: &str = "Assinatura encerrada";
pub const PIX_SUBJECT: &str = "PIX da renovação da sua assinatura";
pub const CARD_EXPIRING_SUBJECT: &str = "O cartão da sua assinatura vai vencer";

/// Where a plan's member changes the card that pays it.
pub const PLAN_CARD_PATH: &str = "/homepage/planos/editar-pagamento";

/// Who the subscription is for and what it is called, as a message names it.
#[derive(Debug, Clone, sqlx::FromRow)]
struct Subject {
    email: Option<String>,
    name: String,
    action_id: Option<i64>,
    card_digits: Option<String>,
}

async fn subject(conn: &mut PgConnection, subscription_id: i64) -> sqlx::Result<Subject> {
    sqlx::query_as(
        "SELECT u.email,
                coalesce(pl.name, pr.name, 'Assinatura') AS name,
                s.action_id, sc.last_digits AS card_digits
           FROM subscriptions s
           JOIN users u ON u.id = s.user_id
           LEFT JOIN plans pl ON pl.id = s.plan_id
           LEFT JOIN products pr ON pr.id = s.product_id
           LEFT JOIN saved_cards sc ON sc.id = s.saved_card_id
          WHERE s.id = $1",
    )
    .bind(subscription_id)
    .fetch_one(conn)
    .await
}

/// The member's page of a subscription: the plans (a plan) or 'Minhas assinaturas' of the
/// type 21 activity.
fn page(station: &Station, action_id: Option<i64>) -> String {
    let base = station.url.trim_end_matches('/');
    match action_id {
        Some(action_id) => format!("{base}/homepage/assinaturas/{action_id}"),
        None => format!("{base}/homepage/planos"),
    }
}

/// Where the member changes the card: the plan's payment form, or the type 21 page (its
/// 'Novo cartão').
pub fn change_card_url(station: &Station, action_id: Option<i64>) -> String {
    match action_id {
        Some(_) => page(station, action_id),
        None => format!("{}{PLAN_CARD_PATH}", station.url.trim_end_matches('/')),
    }
}

fn day(station: &Station, at: DateTime<Utc>) -> String {
    at.with_timezone(&zone_named(&station.time_zone))
        .format("%d/%m/%Y")
        .to_string()
}

/// The e-mail an applied answer tells the member, with its once-key. `None` when there is
/// nothing to tell or nobody to tell it to (a member without e-mail).
pub async fn render(
    conn: &mut PgConnection,
    notice: &Notice,
    period: &Billable,
    attempt: Option<i32>,
) -> sqlx::Result<Option<(Mail, String)>> {
    let Some(station) = station::find(&mut *conn, period.station_id).await? else {
        return Ok(None);
    };
    let subject = subject(conn, period.subscription_id).await?;
    let Some(email) = subject.email.clone().filter(|e| !e.trim().is_empty()) else {
        return Ok(None);
    };
    let amount = format_brl(period.amount);
    let name = &subject.name;
    let card = subject
        .card_digits
        .as_deref()
        .map(|digits| format!(" no cartão final {digits}"))
        .unwrap_or_default();
    let (title, message, key) = match notice {
        // The order's own receipt tells it.
        Notice::OrderMade { .. } => return Ok(None),
        Notice::Receipt => (
            RECEIPT_SUBJECT,
            MailNotice {
                heading: RECEIPT_SUBJECT.into(),
                paragraphs: vec![
                    format!("Recebemos o pagamento de {amount} da sua assinatura {name}."),
                    format!(
                        "Período: {} a {}.",
                        day(&station, period.starts_at),
                        day(&station, period.ends_at)
                    ),
                ],
                button: Some(Button {
                    label: "Ver assinatura".into(),
                    url: page(&station, subject.action_id),
                }),
            },
            format!("subscription-receipt:{}", period.period_id),
        ),
        Notice::Declined { retry_at, .. } if period.method == BillingMethod::Pix => (
            DECLINED_SUBJECT,
            MailNotice {
                heading: "PIX não pago".into(),
                paragraphs: vec![
                    format!(
                        "O PIX de {amount} da renovação da sua assinatura {name} venceu sem pagamento."
                    ),
                    format!(
                        "Enviaremos um novo código em {}. Até lá, seu acesso continua.",
                        day(&station, *retry_at)
                    ),
                ],
                button: Some(Button {
                    label: "Ver assinatura".into(),
                    url: page(&station, subject.action_id),
                }),
            },
            format!(
                "subscription-declined:{}:{}",
                period.period_id,
                attempt.unwrap_or(0)
            ),
        ),
        Notice::Declined { reason, retry_at } => (
            DECLINED_SUBJECT,
            MailNotice {
                heading: "Pagamento recusado".into(),
                paragraphs: vec![
                    format!("Não conseguimos cobrar {amount} da sua assinatura {name}{card}."),
                    format!("Motivo: {reason}"),
                    format!(
                        "Tentaremos novamente em {}. Para não perder o acesso, cadastre um novo cartão: a cobrança é refeita na hora.",
                        day(&station, *retry_at)
                    ),
                ],
                button: Some(Button {
                    label: "Alterar cartão".into(),
                    url: change_card_url(&station, subject.action_id),
                }),
            },
            format!(
                "subscription-declined:{}:{}",
                period.period_id,
                attempt.unwrap_or(0)
            ),
        ),
        Notice::Ended { reason } => (
            ENDED_SUBJECT,
            MailNotice {
                heading: ENDED_SUBJECT.into(),
                paragraphs: vec![
                    format!(
                        "Não conseguimos cobrar {amount} da sua assinatura {name}{card} e ela foi encerrada."
                    ),
                    format!("Motivo: {reason}"),
                    "Você pode assinar novamente quando quiser.".into(),
                ],
                button: Some(Button {
                    label: "Assinar novamente".into(),
                    url: page(&station, subject.action_id),
                }),
            },
            format!("subscription-ended:{}", period.subscription_id),
        ),
        // Keyed like `Ended`: a subscription ends once, and is told so once.
        Notice::TakenBack { reason } => (
            ENDED_SUBJECT,
            MailNotice {
                heading: ENDED_SUBJECT.into(),
                paragraphs: vec![
                    format!(
                        "O pagamento de {amount} da sua assinatura {name} foi estornado e ela foi encerrada."
                    ),
                    format!("Motivo: {reason}"),
                    "Você pode assinar novamente quando quiser.".into(),
                ],
                button: Some(Button {
                    label: "Assinar novamente".into(),
                    url: page(&station, subject.action_id),
                }),
            },
            format!("subscription-ended:{}", period.subscription_id),
        ),
        Notice::PixDue {
            br_code,
            expires_at,
        } => (
            PIX_SUBJECT,
            MailNotice {
                heading: "Pague a renovação da sua assinatura".into(),
                paragraphs: vec![
                    format!(
                        "A renovação da sua assinatura {name} ({amount}) está disponível para pagamento por PIX até {}.",
                        day(&station, *expires_at)
                    ),
                    "Copie o código abaixo e cole no aplicativo do seu banco (Pix copia e cola):"
                        .into(),
                    br_code.clone(),
                ],
                button: Some(Button {
                    label: "Ver assinatura".into(),
                    url: page(&station, subject.action_id),
                }),
            },
            format!(
                "subscription-pix:{}:{}",
                period.period_id,
                attempt.unwrap_or(0)
            ),
        ),
    };
    let mail = OutgoingMail::notice(
        &Branding::of(&station, &station.url),
        email,
        title,
        &message,
    );
    Ok(Some((
        Mail {
            mail,
            station_id: period.station_id,
            user_id: Some(period.user_id),
            about: ("subscription", period.subscription_id),
        },
        key,
    )))
}

/// A saved card that pays a live subscription and expires before its next renewal.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExpiringCard {
    pub card_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub subscription_id: i64,
    pub action_id: Option<i64>,
    pub last_digits: String,
    pub exp_month: i32,
    pub exp_year: i32,
    pub email: Option<String>,
    pub name: String,
}

impl ExpiringCard {
    /// One reminder per card and expiry: a card renewed with a new expiry gets its own.
    pub fn once_key(&self) -> String {
        format!(
            "card-expiring:{}:{}-{:02}",
            self.card_id, self.exp_year, self.exp_month
        )
    }
}

/// The reminder for a card about to expire. `None` without an e-mail or station.
pub async fn card_expiring(
    conn: &mut PgConnection,
    card: &ExpiringCard,
) -> sqlx::Result<Option<Mail>> {
    let Some(station) = station::find(&mut *conn, card.station_id).await? else {
        return Ok(None);
    };
    let Some(email) = card.email.clone().filter(|e| !e.trim().is_empty()) else {
        return Ok(None);
    };
    let message = MailNotice {
        heading: CARD_EXPIRING_SUBJECT.into(),
        paragraphs: vec![
            format!(
                "O cartão final {} que paga a sua assinatura {} vence em {:02}/{}, antes da próxima renovação.",
                card.last_digits, card.name, card.exp_month, card.exp_year
            ),
            "Cadastre um novo cartão para que a renovação não seja recusada.".into(),
        ],
        button: Some(Button {
            label: "Alterar cartão".into(),
            url: change_card_url(&station, card.action_id),
        }),
    };
    Ok(Some(Mail {
        mail: OutgoingMail::notice(
            &Branding::of(&station, &station.url),
            email,
            CARD_EXPIRING_SUBJECT,
            &message,
        ),
        station_id: card.station_id,
        user_id: Some(card.user_id),
        about: ("subscription", card.subscription_id),
    }))
}
