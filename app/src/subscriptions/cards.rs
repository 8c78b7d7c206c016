//! The card a subscription pays with: a saved card of the member's, or a new card from the
//! browser's tokeniser, which is saved with the provider first (a subscription's periods
//! are charged off-session, so its card is always kept). The one place a subscription
//! turns a form's card into a saved card's id.

use domain::commerce::cards;
use domain::commerce::gateway::{BillingAddress, GatewayError, PaymentGateway};
use domain::shared::ids::{StationId, UserId};
use domain::subscriptions::subscribe;
use payments::Gateway;
use sqlx::PgPool;

use super::subscribe::SubscriptionError;

/// The card a form names.
#[derive(Debug, Clone)]
pub enum PayingCard {
    /// A saved card's id (`selected_card`).
    Saved(i64),
    /// The tokeniser's token with the card's billing address and, when the form gave it,
    /// its expiry (month, year).
    New {
        token: String,
        billing_address: BillingAddress,
        expiry: Option<(u32, i32)>,
    },
}

impl PayingCard {
    /// The saved card's id: the member's own for a saved card, the card just saved with
    /// the provider for a new one.
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
            Self::New { token, expiry, .. } => {
                // Only the sandbox attaches a token to a saved card so far; Pagar.me's
                // customer wallet comes with `PaymentGateway::save_card`.
                let Some(sandbox) = gateway.sandbox() else {
                    return Err(SubscriptionError::CardNotKept);
                };
                let card = sandbox.save_card(token).await.map_err(|err| match err {
                    GatewayError::Rejected(_) => SubscriptionError::CardRefused,
                    other => SubscriptionError::Gateway(other),
                })?;
                let mut conn = db.acquire().await?;
                cards::save(
                    &mut conn,
                    station_id.0,
                    user_id.0,
                    provider,
                    &card.card_id,
                    &card.brand,
                    &card.last_digits,
                )
                .await?;
                subscribe::saved_card(&mut conn, user_id, provider, &card.card_id, *expiry)
                    .await?
                    .ok_or(SubscriptionError::CardRefused)
            }
        }
    }
}
