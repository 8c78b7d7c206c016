//! A member's payment methods. Saving a card at the payment provider (the checkout's "save
//! this card" and `POST /user-credit-cards`, and a plan bought with a new card): the
//! provider is asked outside any transaction, then the card (and the member's customer at a
//! provider that has customers, made once) is recorded in one. Removing a card (recorded
//! first, so nothing charges it from then on, then deleted at the provider) and choosing
//! the default. The monthly reminder of the cards about to expire.

use chrono::{DateTime, Datelike, Utc};
use sqlx::PgPool;

use crate::Outbox;
use domain::commerce::card_reminders;
use domain::commerce::cards::{self, RemoveRefusal, SavedCard};
use domain::commerce::gateway::{
    BillingAddress, Customer, GatewayError, PaymentGateway, SaveCardRequest,
};
use domain::shared::failure::{Failure, IntoFailure};
use domain::shared::ids::{StationId, UserId};

use super::charge::CARD_REFUSED;

#[derive(Debug, thiserror::Error)]
pub enum SaveCardError {
    /// The provider refused the card (unknown or used token, declined on verification), or
    /// the card is another member's.
    #[error("card refused: {0}")]
    Refused(String),
    /// The provider is unreachable or failed.
    #[error("payment provider: {0}")]
    Gateway(GatewayError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A refused card is the member's to fix, in the checkout's words; the rest is internal.
impl IntoFailure for SaveCardError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(_) => Failure::invalid(CARD_REFUSED),
            other => Failure::Internal(other.into()),
        }
    }
}

/// A card the browser tokenised, with what the provider needs beside it.
#[derive(Debug, Clone)]
pub struct NewCard {
    pub token: String,
    pub billing_address: BillingAddress,
    /// The payer as a new customer is made (a customer made before is kept as it is).
    pub customer: Customer,
}

/// Saves the card at the provider and among the member's cards; answers it as listed.
/// Saving the same card again answers the same row.
pub async fn save_card(
    db: &PgPool,
    gateway: &impl PaymentGateway,
    station: StationId,
    user: UserId,
    card: NewCard,
) -> Result<SavedCard, SaveCardError> {
    let provider = gateway.provider();
    let mut conn = db.acquire().await?;
    let customer_id = cards::customer_id(&mut conn, user.0, provider).await?;
    drop(conn);
    let request = SaveCardRequest {
        customer: card.customer,
        customer_id,
        token: card.token,
        billing_address: card.billing_address,
        // One customer per member, however many saves race to make it.
        idempotency_key: format!("customer-{}", user.0),
    };
    let saved = match gateway.save_card(&request).await {
        Ok(saved) => saved,
        Err(GatewayError::Rejected(reason)) => return Err(SaveCardError::Refused(reason)),
        Err(other) => return Err(SaveCardError::Gateway(other)),
    };
    let mut tx = db.begin().await?;
    if let Some(customer_id) = &saved.customer_id {
        cards::keep_customer(&mut tx, user.0, provider, customer_id).await?;
    }
    let id = cards::save(&mut tx, station.0, user.0, provider, &saved)
        .await?
        .ok_or_else(|| SaveCardError::Refused("the card is another member's".into()))?;
    let card = cards::one_of_member(&mut tx, user.0, provider, id)
        .await?
        .ok_or(SaveCardError::Db(sqlx::Error::RowNotFound))?;
    tx.commit().await?;
    Ok(card)
}

/// Removes one of the member's cards: at once here (no checkout, subscription or top-up
/// charges it from then on), then at the provider. The deletion at the provider is queued
/// with the removal (`cards.delete`, a minute later) and tried at once: a provider that
/// cannot be reached now is asked again by the job until it answers.
pub async fn remove_card<O: Outbox>(
    db: &PgPool,
    gateway: &impl PaymentGateway,
    outbox: &O,
    user: UserId,
    card_id: i64,
) -> Result<(), RemoveRefusal> {
    let mut tx = db.begin().await?;
    let removed = cards::remove(&mut tx, user.0, gateway.provider(), card_id).await?;
    outbox
        .delete_saved_card(
            &mut tx,
            removed.station_id,
            user.0,
            card_id,
            removed.removed_at,
        )
        .await?;
    tx.commit().await?;
    if let Err(error) = delete_at_provider(db, gateway, card_id).await {
        tracing::warn!(%error, card_id, "saved card removed here; its deletion at the provider waits for its job");
    }
    Ok(())
}

/// Deletes a removed card at the provider unless it was already (or the member saved it
/// again): what `cards.delete` and the removal itself call. Answers whether it asked.
pub async fn delete_at_provider(
    db: &PgPool,
    gateway: &impl PaymentGateway,
    card_id: i64,
) -> Result<bool, GatewayError> {
    let mut conn = db.acquire().await?;
    let Some(gateway_card_id) =
        cards::to_delete_at_provider(&mut conn, gateway.provider(), card_id).await?
    else {
        return Ok(false);
    };
    drop(conn);
    gateway.delete_card(&gateway_card_id).await?;
    let mut conn = db.acquire().await?;
    cards::deleted_at_provider(&mut conn, card_id).await?;
    Ok(true)
}

/// Makes one of the member's cards the default; false when it is not one of theirs.
pub async fn make_default(
    db: &PgPool,
    gateway: &impl PaymentGateway,
    user: UserId,
    card_id: i64,
) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let made = cards::make_default(&mut tx, user.0, gateway.provider(), card_id).await?;
    tx.commit().await?;
    Ok(made)
}

/// E-mails every live card of `provider` that expires this month or next (at `now`), once
/// per card and expiry (the mark the subscriptions' reminder shares), in batches of
/// `batch` cards. Answers how many reminders were queued.
pub async fn remind_expiring_cards<O: Outbox>(
    db: &PgPool,
    outbox: &O,
    provider: &str,
    now: DateTime<Utc>,
    batch: i64,
) -> sqlx::Result<usize> {
    let this_month = card_reminders::Month {
        year: now.year(),
        month: i32::try_from(now.month()).unwrap_or(1),
    };
    let mut after = 0;
    let mut reminded = 0;
    loop {
        let mut tx = db.begin().await?;
        let cards = card_reminders::expiring(&mut tx, provider, this_month, after, batch).await?;
        for card in &cards {
            if !card_reminders::claim(&mut tx, card.card_id, card.exp_year, card.exp_month).await? {
                continue;
            }
            if let Some(mail) = card_reminders::mail(&mut tx, card).await? {
                crate::mail::send_once(outbox, &mut tx, mail, card.once_key()).await?;
                reminded += 1;
            }
        }
        tx.commit().await?;
        match cards.last() {
            Some(last) if i64::try_from(cards.len()).unwrap_or(i64::MAX) >= batch => {
                after = last.card_id;
            }
            _ => return Ok(reminded),
        }
    }
}
