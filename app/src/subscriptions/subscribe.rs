//! What a member does to their subscriptions: buy a plan, subscribe to a type 21
//! product, change plan, cancel, change the card, ask for an enterprise plan. Each use case
//! makes its rows in one transaction (`domain::subscriptions::subscribe`), commits, and only
//! then has the billing engine charge what is due now (`billing::charge_period`), so the
//! provider is never called inside a transaction and a crash in between leaves a period the
//! engine can charge again under the same idempotency key.

use std::net::IpAddr;

use domain::commerce::gateway::{GatewayError, PaymentGateway};
use domain::infra::captcha::{self, CaptchaVerifier};
use domain::shared::failure::{Failure, IntoFailure};
use domain::shared::ids::{Cents, StationId, UserId};
use domain::subscriptions::plans;
use domain::subscriptions::subscribe::{self, NewSubscription, SubscribeError, Target};
use domain::subscriptions::views;
use payments::Gateway;
use sqlx::PgPool;

use super::billing::{self, BillingError, PeriodOutcome};
use super::cards::PayingCard;
use crate::outbox::Outbox;

/// A subscription that costs something, without a card.
pub const CARD_REQUIRED: &str = crate::commerce::charge::CARD_REQUIRED;
/// A token the provider does not know (expired, or of another provider).
pub const CARD_REFUSED: &str = crate::commerce::charge::CARD_REFUSED;

#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    #[error(transparent)]
    Subscribe(#[from] SubscribeError),
    #[error("billing: {0}")]
    Billing(#[from] BillingError),
    /// The card was declined: the provider's reason, for the member.
    #[error("declined: {0}")]
    Declined(String),
    #[error("no card")]
    CardRequired,
    #[error("card refused by the provider")]
    CardRefused,
    #[error("captcha failed")]
    Captcha,
    #[error("enterprise message: {0}")]
    Message(&'static str),
    #[error("no contact address")]
    NoContact,
    #[error(transparent)]
    Gateway(#[from] GatewayError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl IntoFailure for SubscriptionError {
    fn into_failure(self) -> Failure {
        match self {
            Self::Subscribe(err) => err.into_failure(),
            Self::Declined(reason) => Failure::invalid(reason),
            Self::CardRequired => Failure::invalid(CARD_REQUIRED),
            Self::CardRefused => Failure::invalid(CARD_REFUSED),
            Self::Captcha => Failure::invalid(captcha::FAILED_MESSAGE),
            Self::Message(message) => Failure::invalid(message),
            Self::NoContact => Failure::invalid(plans::ENTERPRISE_NO_CONTACT),
            other => Failure::Internal(other.into()),
        }
    }
}

/// What charging the period due now came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charged {
    /// Paid (or nothing was due).
    Done,
    /// The provider has not decided yet (a card under analysis): the subscription stays
    /// as it was until it does.
    Processing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subscribed {
    pub subscription_id: i64,
    pub charged: Charged,
}

fn charged(outcome: PeriodOutcome) -> Result<Charged, SubscriptionError> {
    match outcome {
        PeriodOutcome::Paid | PeriodOutcome::AlreadyPaid => Ok(Charged::Done),
        PeriodOutcome::Declined { reason } => Err(SubscriptionError::Declined(reason)),
        PeriodOutcome::Processing | PeriodOutcome::Pending | PeriodOutcome::NotDue => {
            Ok(Charged::Processing)
        }
    }
}

/// Buys a plan (spec 002 'comprar'): the subscription `incomplete` with its period 0, then
/// the period charged at once. Paid: active. Declined: refused with the provider's reason
/// (the engine ends the subscription). A plan that costs nothing needs no card and is
/// active at once. A member with a live plan is refused (they change it instead).
pub async fn subscribe_plan(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    plan_id: i64,
    card: Option<&PayingCard>,
) -> Result<Subscribed, SubscriptionError> {
    let mut conn = db.acquire().await?;
    let plan = plans::on_sale(&mut conn, station_id, plan_id)
        .await?
        .ok_or(SubscribeError::PlanNotFound)?;
    let price = plan.price().ok_or(SubscribeError::Negotiated)?;
    // Refused before a new card is saved for nothing; the unique index is the real guard.
    if views::live_plan(&mut conn, station_id, user_id)
        .await?
        .is_some()
    {
        return Err(SubscribeError::AlreadySubscribed.into());
    }
    drop(conn);
    let saved_card_id = card_for(db, gateway, station_id, user_id, price, card).await?;
    let period = plan.period();
    let new = NewSubscription {
        station_id,
        user_id,
        target: Target::Plan { plan_id: plan.id },
        recurrence: period.as_str(),
        period: period.period(),
        amount: price,
        saved_card_id,
        anchor: gateway.now().await?,
    };
    start(db, gateway, outbox, &new).await
}

/// The product a type 21 subscription is asked for: the form's `products` entries
/// (`id`, `quantity`).
#[derive(Debug, Clone)]
pub struct ProductChoice {
    pub action_id: i64,
    pub action_subscription_id: i64,
    pub products: Vec<(i64, i64)>,
}

/// Subscribes to a type 21 activity's product with one of its recurrences (spec 001 type
/// 21): the amount is the product's price times the quantity, the period the recurrence's;
/// period 0 is charged at once like a plan's. One product, in stock, of a live type 21
/// activity.
pub async fn subscribe_product(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    choice: &ProductChoice,
    card: Option<&PayingCard>,
) -> Result<Subscribed, SubscriptionError> {
    let wanted: Vec<(i64, i64)> = choice
        .products
        .iter()
        .copied()
        .filter(|(_, quantity)| *quantity > 0)
        .collect();
    let (product_id, quantity) = match wanted.as_slice() {
        [] => return Err(SubscribeError::ProductNotSelected.into()),
        [one] => *one,
        _ => return Err(SubscribeError::OneProduct.into()),
    };
    let quantity = i32::try_from(quantity).map_err(|_| SubscribeError::ProductUnavailable)?;
    let mut conn = db.acquire().await?;
    let offer = subscribe::product_offer(
        &mut conn,
        station_id,
        choice.action_id,
        choice.action_subscription_id,
        product_id,
        quantity,
    )
    .await?;
    let live = views::product_subscriptions(&mut conn, station_id, user_id, Some(offer.action_id))
        .await?
        .into_iter()
        .any(|subscription| subscription.status.is_live());
    if live {
        return Err(SubscribeError::AlreadySubscribedAction.into());
    }
    drop(conn);
    let amount = Cents(offer.unit_price.0 * i64::from(quantity));
    let saved_card_id = card_for(db, gateway, station_id, user_id, amount, card).await?;
    let new = NewSubscription {
        station_id,
        user_id,
        target: Target::Product {
            action_id: offer.action_id,
            action_subscription_id: offer.action_subscription_id,
            product_id: offer.product_id,
            quantity,
        },
        recurrence: offer.recurrence.as_str(),
        period: offer.recurrence.period(),
        amount,
        saved_card_id,
        anchor: gateway.now().await?,
    };
    start(db, gateway, outbox, &new).await
}

/// The saved card a subscription costing `amount` pays with: none when it costs nothing.
async fn card_for(
    db: &PgPool,
    gateway: &Gateway,
    station_id: StationId,
    user_id: UserId,
    amount: Cents,
    card: Option<&PayingCard>,
) -> Result<Option<i64>, SubscriptionError> {
    if amount == Cents::ZERO {
        return Ok(None);
    }
    let card = card.ok_or(SubscriptionError::CardRequired)?;
    Ok(Some(
        card.saved_card_id(db, gateway, station_id, user_id).await?,
    ))
}

/// The subscription and its period 0 in one transaction, then period 0 charged.
async fn start(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    new: &NewSubscription,
) -> Result<Subscribed, SubscriptionError> {
    let mut tx = db.begin().await?;
    let created = subscribe::create(&mut tx, new).await?;
    tx.commit().await?;
    // A period that costs nothing is paid by the engine without the provider.
    let charged = charged(billing::charge_period(db, gateway, outbox, created.period_id).await?)?;
    Ok(Subscribed {
        subscription_id: created.subscription_id,
        charged,
    })
}

/// Changes the member's plan ('mudar'): a downgrade waits for the period's end; an upgrade
/// charges its proration at once and switches when it is paid, refused as a whole when
/// declined. A new card, when given, pays from now on (the proration included).
#[allow(clippy::too_many_arguments)]
pub async fn change_plan(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    plan_id: i64,
    card: Option<&PayingCard>,
) -> Result<Subscribed, SubscriptionError> {
    let card_id = match card {
        Some(card) => Some(card.saved_card_id(db, gateway, station_id, user_id).await?),
        None => None,
    };
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    let mut replaced = None;
    if let Some(card_id) = card_id {
        let changed =
            subscribe::change_card(&mut tx, station_id, user_id, subscription_id, card_id).await?;
        replaced = Some(changed.previous);
    }
    let changed =
        subscribe::change_plan(&mut tx, station_id, user_id, subscription_id, plan_id, now).await?;
    if let (Some(previous), Some(period_id)) = (replaced, changed.charge_period_id) {
        // Refused as a whole, the card that was declined does not stay either: the engine
        // puts this one back when it records the refusal (now, or later for a try whose
        // answer was lost), never on a timeout alone.
        subscribe::remember_replaced_card(&mut tx, period_id, previous).await?;
    }
    tx.commit().await?;
    let charged = match changed.charge_period_id {
        Some(period_id) => charged(billing::charge_period(db, gateway, outbox, period_id).await?)?,
        None => Charged::Done,
    };
    Ok(Subscribed {
        subscription_id,
        charged,
    })
}

/// Cancels the member's plan with one of the spec's reasons; answers its id.
pub async fn cancel_plan(
    db: &PgPool,
    gateway: &Gateway,
    station_id: StationId,
    user_id: UserId,
    reason: &str,
) -> Result<i64, SubscriptionError> {
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    let id = subscribe::cancel_plan(&mut tx, station_id, user_id, reason.trim(), now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Cancels one of the member's type 21 subscriptions.
pub async fn cancel_product(
    db: &PgPool,
    gateway: &Gateway,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    action_id: Option<i64>,
) -> Result<(), SubscriptionError> {
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    subscribe::cancel_product(
        &mut tx,
        station_id,
        user_id,
        subscription_id,
        action_id,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The card a live subscription pays with from now on; a period waiting for a retry
/// (`past_due`) is tried again at once.
pub async fn change_card(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    station_id: StationId,
    user_id: UserId,
    subscription_id: i64,
    card: &PayingCard,
) -> Result<(), SubscriptionError> {
    let card_id = card.saved_card_id(db, gateway, station_id, user_id).await?;
    let mut tx = db.begin().await?;
    let changed =
        subscribe::change_card(&mut tx, station_id, user_id, subscription_id, card_id).await?;
    tx.commit().await?;
    if changed.past_due {
        billing::retry_now(db, gateway, outbox, subscription_id).await?;
    }
    Ok(())
}

/// The enterprise plan form (`/homepage/planos/sobconsulta`): the captcha checked like the
/// sign-up's, then the message e-mailed to the station's contact address. Answers the
/// e-mail's job id.
#[allow(clippy::too_many_arguments)]
pub async fn enterprise_contact(
    db: &PgPool,
    outbox: &impl Outbox,
    verifier: &dyn CaptchaVerifier,
    ip: Option<IpAddr>,
    public_url: &str,
    station_id: StationId,
    user_id: UserId,
    message: &str,
    captcha_token: Option<&str>,
) -> Result<String, SubscriptionError> {
    let message = plans::enterprise_message(message).map_err(SubscriptionError::Message)?;
    if !captcha::passes(verifier, captcha_token, ip).await {
        return Err(SubscriptionError::Captcha);
    }
    let mut tx = db.begin().await?;
    let mail = plans::enterprise_mail(&mut tx, station_id, user_id, message, public_url)
        .await?
        .ok_or(SubscriptionError::NoContact)?;
    let queued = outbox.send_mail(&mut tx, mail, None).await?;
    tx.commit().await?;
    Ok(queued.job_id)
}
