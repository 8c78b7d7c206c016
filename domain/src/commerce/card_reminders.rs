//! The e-mail that a saved card is about to expire: every live card, in the month before
//! the one it expires in (or in that month, for a card saved or missed after the month's
//! run), once per card and expiry. The mark (`card_expiry_reminders`) is shared with the
//! subscriptions' reminder of a card that expires before the renewal it pays, so a card gets
//! one e-mail whichever job sees it first; a card that pays a live subscription is named
//! with it and links to where the subscription's card is changed.

use sqlx::PgConnection;

use crate::accounts::change::Mail;
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::stations::station;
use crate::subscriptions::mail::change_card_url;

pub const CARD_EXPIRING_SUBJECT: &str = "Seu cartão salvo vai vencer";

/// Where the member sees and adds payment methods.
pub const PAYMENT_METHODS_PATH: &str = "/homepage/meios-de-pagamento";

/// A calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    pub year: i32,
    /// 1 to 12.
    pub month: i32,
}

impl Month {
    pub fn next(self) -> Self {
        if self.month == 12 {
            Self {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Self {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// Comparable as one number (`2026 * 12 + 11` for December 2026).
    fn index(self) -> i32 {
        self.year * 12 + (self.month - 1)
    }
}

/// A live card that expires soon, with the live subscription it pays, if any.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExpiringSavedCard {
    pub card_id: i64,
    pub station_id: i64,
    pub user_id: i64,
    pub brand: String,
    pub last_digits: String,
    pub exp_month: i32,
    pub exp_year: i32,
    pub email: Option<String>,
    /// The plan's or product's name of a live card subscription it pays.
    pub subscription: Option<String>,
    pub subscription_action_id: Option<i64>,
}

impl ExpiringSavedCard {
    /// The mail job's key: one e-mail per card and expiry (the durable mark is
    /// [`claim`]'s).
    pub fn once_key(&self) -> String {
        format!(
            "card-expiring:{}:{}-{:02}",
            self.card_id, self.exp_year, self.exp_month
        )
    }
}

/// Up to `limit` live cards of `provider` (after card id `after`) expiring in `this_month`
/// or the next, not yet reminded of that expiry, of members not deleted.
pub async fn expiring(
    conn: &mut PgConnection,
    provider: &str,
    this_month: Month,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<ExpiringSavedCard>> {
    sqlx::query_as(
        "SELECT sc.id AS card_id, sc.station_id, sc.user_id, sc.brand, sc.last_digits,
                sc.exp_month, sc.exp_year, u.email, sub.name AS subscription,
                sub.action_id AS subscription_action_id
           FROM saved_cards sc
           JOIN users u ON u.id = sc.user_id AND u.deleted_at IS NULL
           LEFT JOIN LATERAL (
                SELECT coalesce(pl.name, pr.name, 'Assinatura') AS name, s.action_id
                  FROM subscriptions s
                  LEFT JOIN plans pl ON pl.id = s.plan_id
                  LEFT JOIN products pr ON pr.id = s.product_id
                 WHERE s.saved_card_id = sc.id AND s.method = 'card'
                   AND s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end
                 ORDER BY s.id LIMIT 1) sub ON true
          WHERE sc.provider = $1 AND sc.removed_at IS NULL AND sc.exp_year IS NOT NULL
            AND sc.exp_year * 12 + sc.exp_month - 1 BETWEEN $2 AND $2 + 1
            AND sc.id > $3
            AND NOT EXISTS (SELECT 1 FROM card_expiry_reminders r
                             WHERE r.saved_card_id = sc.id AND r.exp_year = sc.exp_year
                               AND r.exp_month = sc.exp_month)
          ORDER BY sc.id
          LIMIT $4",
    )
    .bind(provider)
    .bind(this_month.index())
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Marks the card reminded of this expiry; false when it was before (by either job).
pub async fn claim(
    conn: &mut PgConnection,
    card_id: i64,
    exp_year: i32,
    exp_month: i32,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO card_expiry_reminders (saved_card_id, exp_year, exp_month)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(card_id)
    .bind(exp_year)
    .bind(exp_month)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The reminder of one card. `None` without an e-mail or station.
pub async fn mail(conn: &mut PgConnection, card: &ExpiringSavedCard) -> sqlx::Result<Option<Mail>> {
    let Some(station) = station::find(&mut *conn, card.station_id).await? else {
        return Ok(None);
    };
    let Some(email) = card.email.clone().filter(|e| !e.trim().is_empty()) else {
        return Ok(None);
    };
    let expiry = format!("{:02}/{}", card.exp_month, card.exp_year);
    let mut paragraphs = vec![format!(
        "O cartão {} final {} salvo na sua conta vence em {expiry}.",
        brand_name(&card.brand),
        card.last_digits
    )];
    let button = match &card.subscription {
        Some(name) => {
            paragraphs.push(format!(
                "Ele paga a sua assinatura {name}: cadastre um novo cartão para que a renovação não seja recusada."
            ));
            Button {
                label: "Alterar cartão".into(),
                url: change_card_url(&station, card.subscription_action_id),
            }
        }
        None => {
            paragraphs.push(
                "Cadastre um novo cartão para continuar pagando e abastecendo sua carteira sem interrupções."
                    .into(),
            );
            Button {
                label: "Meios de pagamento".into(),
                url: format!(
                    "{}{PAYMENT_METHODS_PATH}",
                    station.url.trim_end_matches('/')
                ),
            }
        }
    };
    let notice = Notice {
        heading: CARD_EXPIRING_SUBJECT.into(),
        paragraphs,
        button: Some(button),
    };
    Ok(Some(Mail {
        mail: OutgoingMail::notice(
            &Branding::of(&station, &station.url),
            email,
            CARD_EXPIRING_SUBJECT,
            &notice,
        ),
        station_id: card.station_id,
        user_id: Some(card.user_id),
        about: ("saved_card", card.card_id),
    }))
}

/// A brand as a member reads it (`visa` → `Visa`).
fn brand_name(brand: &str) -> String {
    let mut chars = brand.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_roll_over_the_year() {
        let december = Month {
            year: 2026,
            month: 12,
        };
        assert_eq!(
            december.next(),
            Month {
                year: 2027,
                month: 1
            }
        );
        assert_eq!(december.next().index(), december.index() + 1);
        assert_eq!(brand_name("mastercard"), "Mastercard");
    }
}
