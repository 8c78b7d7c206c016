//! The card a subscription pays with: a saved card of the member's, or a new card from the
//! browser's tokeniser, which is saved at the provider first (`commerce::cards::save_card`,
//! the port's `save_card`): a subscription's periods are charged off-session, so its card
//! is always kept. The one place a subscription turns a form's card into a saved card's id.

use domain::commerce::gateway::{BillingAddress, PaymentGateway};
use domain::commerce::payment;
use domain::shared::ids::{StationId, UserId};
use domain::subscriptions::subscribe;
use payments::Gateway;
use sqlx::PgPool;

use super::subscribe::SubscriptionError;
use crate::commerce::cards::{NewCard, SaveCardError, save_card};

/// The card a form names.
#[derive(Debug, Clone)]
pub enum PayingCard {
    /// A saved card's id (`selected_card`).
    Saved(i64),
    /// The tokeniser's token with the card's billing address (the provider answers the
    /// card's expiry when it is saved).
    New {
        token: String,
        billing_address: BillingAddress,
    },
}

impl PayingCard {
    /// The saved card's id: the member's own for a saved card, the card just saved at the
    /// provider for a new one.
    pub async fn saved_card_id(
        &self,
        db: &PgPool,
        gateway: &Gateway,
        station_id: StationId,
        user_id: UserId,
    ) -> Result<i64, SubscriptionError> {
        let provider = gateway.provider();
        match self {
            Self::Saved(card_id) => {
                let mut conn = db.acquire().await?;
                Ok(subscribe::own_card(&mut conn, user_id, provider, *card_id).await?)
            }
            Self::New {
                token,
                billing_address,
            } => {
                let mut conn = db.acquire().await?;
                let customer = payment::customer(&mut conn, user_id.0).await?;
                drop(conn);
                let card = NewCard {
                    token: token.clone(),
                    billing_address: billing_address.clone(),
                    customer,
                };
                let saved = save_card(db, gateway, station_id, user_id, card)
                    .await
                    .map_err(|err| match err {
                        SaveCardError::Refused(_) => SubscriptionError::CardRefused,
                        SaveCardError::Gateway(err) => SubscriptionError::Gateway(err),
                        SaveCardError::Db(err) => SubscriptionError::Db(err),
                    })?;
                Ok(saved.id)
            }
        }
    }
}
