//! Saving a member's card at the payment provider (the checkout's "save this card" and
//! `POST /user-credit-cards`, and a plan bought with a new card): the provider is asked
//! outside any transaction, then the card (and the member's customer at a provider that
//! has customers, made once) is recorded in one.

use sqlx::PgPool;

use domain::commerce::cards::{self, SavedCard};
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
