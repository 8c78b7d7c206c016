//! Top-ups (docs/api-wallet.md "Top-ups"): a member's PIX or card top-up and transfer
//! request, the provider's word on a top-up's charge (the webhook's sync, the member's
//! check, the expiry), and staff's confirm, reject and refund, each audited. The provider
//! is always called outside any transaction: the top-up is committed first (its limits
//! checked), its charge made under the top-up's own idempotency key, and the answer applied
//! in a second transaction with its effects (the `points.credit`, the e-mail).

use chrono::{Duration, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use domain::commerce::cards;
use domain::commerce::gateway::{
    BillingAddress, CardSource, Charge, Customer, GatewayError, PaymentGateway, PaymentMethod,
};
use domain::commerce::payment;
use domain::shared::ids::{StationId, UserId};
use domain::staff::{self, Action, AuditRecord, Scope};
use domain::wallet::topups::{self, Applied, Method, Opening, Status, TopUp, TopUpError, mail};
use payments::Gateway;

use crate::commerce::cards::{NewCard, SaveCardError, save_card};
use crate::commerce::charge::CARD_REFUSED;
use crate::outbox::Outbox;

/// How a PIX or card top-up is paid.
#[derive(Debug, Clone)]
pub enum PayWith {
    Pix,
    /// One of the member's saved cards (`saved_cards.id`).
    SavedCard(i64),
    /// The browser tokeniser's token; with a billing address, the card is saved first and
    /// the saved card charged.
    NewCard {
        token: String,
        save_with: Option<BillingAddress>,
    },
}

/// A member's top-up request.
#[derive(Debug, Clone)]
pub struct Purchase {
    pub station_id: i64,
    pub user_id: i64,
    pub amount: i64,
    pub pay_with: PayWith,
}

/// Opens a PIX or card top-up and charges it. A PIX answers pending with its code; a card
/// answers credited, or `review` above the station's threshold, or the provider's refusal
/// (the top-up failed, with its reason). A card that is not the member's (removed, another
/// member's, another provider's) is refused before anything is opened: it is read, and
/// held against its removal, on the top-up's own transaction. The card to charge is kept on
/// that transaction too, so a charge whose answer is lost is asked for again (`expire`,
/// `check`) under the same key.
pub async fn buy(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    purchase: Purchase,
) -> Result<TopUp, TopUpError> {
    let provider = gateway.provider();
    let method = match purchase.pay_with {
        PayWith::Pix => Method::Pix,
        _ => Method::Card,
    };
    let mut tx = db.begin().await?;
    let saved = match &purchase.pay_with {
        PayWith::SavedCard(card_id) => Some(
            cards::hold_gateway_card_id(&mut tx, purchase.user_id, provider, *card_id)
                .await?
                .map(|gateway_id| (*card_id, gateway_id))
                .ok_or(TopUpError::UnknownCard)?,
        ),
        _ => None,
    };
    let topup = topups::open(
        &mut tx,
        &Opening {
            station_id: purchase.station_id,
            user_id: purchase.user_id,
            method,
            amount: purchase.amount,
            saved_card_id: saved.as_ref().map(|(id, _)| *id),
        },
    )
    .await?;
    let kept = match (&purchase.pay_with, &saved) {
        (_, Some((_, gateway_id))) => Some(CardSource::SavedCard(gateway_id.clone())),
        (
            PayWith::NewCard {
                token,
                save_with: None,
            },
            None,
        ) => Some(CardSource::Token(token.clone())),
        _ => None,
    };
    if let Some(source) = &kept {
        topups::keep_card_source(&mut tx, topup.id, source).await?;
    }
    if let Some(at) = topup.expires_at {
        // A top-up left without the provider's answer (a crash before it) is read again,
        // charged again under its key, or ended.
        outbox.expire_topup(&mut tx, &topup, at).await?;
    }
    tx.commit().await?;
    let mut conn = db.acquire().await?;
    let customer = payment::customer(&mut conn, purchase.user_id).await?;
    drop(conn);
    let source = match (purchase.pay_with, kept) {
        (PayWith::Pix, _) => {
            let charge = gateway
                .create_pix_charge(&topup.pix_request(customer))
                .await?;
            let mut tx = db.begin().await?;
            topups::record_pix(&mut tx, topup.id, &charge).await?;
            outbox
                .expire_topup(&mut tx, &topup, charge.expires_at)
                .await?;
            tx.commit().await?;
            return current(db, topup.id).await;
        }
        (_, Some(source)) => source,
        (
            PayWith::NewCard {
                token,
                save_with: Some(billing_address),
            },
            None,
        ) => {
            let card = NewCard {
                token,
                billing_address,
                customer: customer.clone(),
            };
            match save_card(
                db,
                gateway,
                StationId(purchase.station_id),
                UserId(purchase.user_id),
                card,
            )
            .await
            {
                Ok(saved) => {
                    let mut tx = db.begin().await?;
                    topups::set_saved_card(&mut tx, topup.id, saved.id).await?;
                    let gateway_id =
                        cards::hold_gateway_card_id(&mut tx, purchase.user_id, provider, saved.id)
                            .await?
                            .ok_or(TopUpError::UnknownCard)?;
                    let source = CardSource::SavedCard(gateway_id);
                    topups::keep_card_source(&mut tx, topup.id, &source).await?;
                    tx.commit().await?;
                    source
                }
                Err(SaveCardError::Refused(_)) => {
                    return declined(db, topup.id, CARD_REFUSED).await;
                }
                Err(SaveCardError::Gateway(err)) => return Err(err.into()),
                Err(SaveCardError::Db(err)) => return Err(err.into()),
            }
        }
        (_, None) => return Err(TopUpError::UnknownCard),
    };
    charge_card(db, gateway, outbox, public_url, &topup, source, customer).await?;
    let topup = current(db, topup.id).await?;
    match topup.status {
        Status::Failed => Err(TopUpError::Declined(
            topup
                .failure_reason
                .clone()
                .unwrap_or_else(|| topups::DECLINED_DEFAULT.into()),
        )),
        _ => Ok(topup),
    }
}

/// Charges a card top-up under its own key and applies the answer: recorded, then paid,
/// processing or failed; a refusal fails the top-up with the member's reason. Asked again
/// with the same card (a lost answer), the provider answers the original charge.
async fn charge_card(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    topup: &TopUp,
    source: CardSource,
    customer: Customer,
) -> Result<Applied, TopUpError> {
    let answer = gateway
        .create_card_charge(&topup.card_request(customer, source))
        .await;
    let charge = match answer {
        Ok(charge) => charge,
        Err(GatewayError::Rejected(_)) => {
            let mut tx = db.begin().await?;
            let applied = topups::decline(&mut tx, topup.id, CARD_REFUSED).await?;
            tx.commit().await?;
            return Ok(applied);
        }
        Err(other) => return Err(other.into()),
    };
    let mut tx = db.begin().await?;
    topups::record_charge(&mut tx, topup.id, &charge.charge_id).await?;
    let applied = topups::apply_charge(
        &mut tx,
        &Charge {
            charge_id: charge.charge_id.clone(),
            method: PaymentMethod::CreditCard,
            status: charge.status,
            amount_cents: topup.amount,
            paid_amount_cents: 0,
            refunded_amount_cents: 0,
            reference: Some(topup.reference()),
            paid_at: None,
            expires_at: None,
            failure_reason: charge.failure_reason.clone(),
        },
    )
    .await?;
    if let Some(applied) = &applied {
        follow_up(outbox, &mut tx, applied, public_url).await?;
    }
    tx.commit().await?;
    match applied {
        Some(applied) => Ok(applied),
        None => Ok(Applied::Unchanged(current(db, topup.id).await?)),
    }
}

/// A pending card top-up whose charge was asked for but never recorded (a lost answer, a
/// crash before it was written): the same charge is asked for again with the card kept for
/// it and applied. `None`: no charge was ever asked for it.
async fn charge_unrecorded(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    topup: &TopUp,
) -> Result<Option<Applied>, TopUpError> {
    let mut conn = db.acquire().await?;
    let Some(source) = topups::unrecorded_card_source(&mut conn, topup.id).await? else {
        return Ok(None);
    };
    let customer = payment::customer(&mut conn, topup.user_id).await?;
    drop(conn);
    charge_card(db, gateway, outbox, public_url, topup, source, customer)
        .await
        .map(Some)
}

/// A card refused before any charge: the top-up fails with the member's reason.
async fn declined(db: &PgPool, topup_id: i64, reason: &str) -> Result<TopUp, TopUpError> {
    let mut tx = db.begin().await?;
    topups::decline(&mut tx, topup_id, reason).await?;
    tx.commit().await?;
    Err(TopUpError::Declined(reason.into()))
}

async fn current(db: &PgPool, topup_id: i64) -> Result<TopUp, TopUpError> {
    let mut conn = db.acquire().await?;
    topups::find(&mut conn, topup_id)
        .await?
        .ok_or(TopUpError::NotFound)
}

/// A member's bank-transfer request (`POST /transfer-request`): limits checked, pending
/// until staff confirm it or its time runs out (its expiry job queued with it).
pub async fn request_transfer(
    db: &PgPool,
    outbox: &impl Outbox,
    station_id: i64,
    user_id: i64,
    amount: i64,
) -> Result<TopUp, TopUpError> {
    let mut tx = db.begin().await?;
    let topup = topups::open(
        &mut tx,
        &Opening {
            station_id,
            user_id,
            method: Method::Transfer,
            amount,
            saved_card_id: None,
        },
    )
    .await?;
    if let Some(at) = topup.expires_at {
        outbox.expire_topup(&mut tx, &topup, at).await?;
    }
    tx.commit().await?;
    Ok(topup)
}

/// The member's "Verificar pagamento" of a top-up: a pending charge is read again at the
/// provider (unless read less than `reuse_seconds` ago) and applied like the webhook's.
/// Another member's top-up is not found.
pub async fn check(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    user_id: i64,
    topup_id: i64,
    reuse_seconds: u64,
) -> Result<TopUp, TopUpError> {
    let mut conn = db.acquire().await?;
    let topup = topups::of_member(&mut conn, user_id, topup_id)
        .await?
        .ok_or(TopUpError::NotFound)?;
    if topup.status == Status::Pending
        && (topup.gateway_charge_id.is_some() || topup.method == Method::Card)
        && topups::claim_charge_read(&mut conn, topup.id, reuse_seconds).await?
    {
        drop(conn);
        match &topup.gateway_charge_id {
            Some(charge_id) => {
                sync_charge(db, gateway, outbox, public_url, charge_id).await?;
            }
            None if topup.method == Method::Card => {
                charge_unrecorded(db, gateway, outbox, public_url, &topup).await?;
            }
            None => {}
        }
    }
    current(db, topup_id).await
}

/// Reads a top-up's charge again at the provider and applies it (the webhook's
/// `payment.sync`, the member's check, the expiry). An unknown charge changes nothing.
pub async fn sync_charge(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    charge_id: &str,
) -> Result<Option<Applied>, TopUpError> {
    let charge = match gateway.get_charge(charge_id).await {
        Ok(charge) => charge,
        Err(GatewayError::NotFound) => return Ok(None),
        Err(other) => return Err(other.into()),
    };
    let mut tx = db.begin().await?;
    let applied = topups::apply_charge(&mut tx, &charge).await?;
    if let Some(applied) = &applied {
        follow_up(outbox, &mut tx, applied, public_url).await?;
    }
    tx.commit().await?;
    // A rejection whose refund is owed (the bank gave part back of a top-up under review, or
    // staff's refund call failed): what is left goes back now, or at the next report.
    if let Some(applied) = &applied
        && applied.topup().status == Status::Rejected
    {
        send_refund(db, gateway, applied.topup()).await?;
    }
    Ok(applied)
}

/// What a change to a top-up needs on its transaction: a credited one's points (keyed by
/// the top-up) and the member's e-mail (once per top-up).
async fn follow_up(
    outbox: &impl Outbox,
    tx: &mut PgConnection,
    applied: &Applied,
    public_url: &str,
) -> sqlx::Result<()> {
    let (topup, kind) = match applied {
        Applied::Credited(topup) => {
            outbox.credit_points(&mut *tx, topup.credit()).await?;
            (topup, mail::Kind::Credited)
        }
        Applied::Expired(topup) if topup.method == Method::Transfer => {
            (topup, mail::Kind::TransferExpired)
        }
        _ => return Ok(()),
    };
    if let Some((mail, key)) = mail::render(tx, topup, kind, public_url).await? {
        crate::mail::send_once(outbox, tx, mail, key).await?;
    }
    Ok(())
}

/// The expiry job's work: a top-up still pending at its expiry. A PIX's charge is read
/// first (a payment that just landed credits it) and cancelled otherwise; a transfer
/// request expires and its member is told. A card's charge whose answer was never recorded
/// is asked for again with the card kept for it (the provider answers the original charge);
/// a card's charge is read again, and one still processing is given another
/// [`topups::CARD_SECONDS`], up to [`topups::CARD_EXPIRY_ROUNDS`] times, then cancelled at
/// the provider: the top-up fails only if the provider says it was not paid. A card top-up
/// with no charge ever asked for fails. Anything no longer pending, or whose expiry moved
/// later, is left alone.
pub async fn expire(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    topup_id: i64,
) -> Result<Applied, TopUpError> {
    let mut topup = current(db, topup_id).await?;
    if topup.status != Status::Pending {
        return Ok(Applied::Unchanged(topup));
    }
    if topup
        .expires_at
        .is_some_and(|at| at > Utc::now() + Duration::seconds(1))
    {
        return Ok(Applied::Unchanged(topup));
    }
    if topup.method == Method::Card
        && topup.gateway_charge_id.is_none()
        && let Some(applied) = charge_unrecorded(db, gateway, outbox, public_url, &topup).await?
    {
        topup = current(db, topup_id).await?;
        if topup.status != Status::Pending {
            return Ok(applied);
        }
    }
    match (&topup.gateway_charge_id, topup.method) {
        (Some(charge_id), Method::Card) => {
            expire_card_charge(db, gateway, outbox, public_url, topup.clone(), charge_id).await
        }
        (Some(charge_id), _) => {
            let charge = gateway.get_charge(charge_id).await?;
            let charge = if charge.status.money_received() {
                charge
            } else {
                gateway
                    .cancel_charge(charge_id, &format!("cancel:{}", topup.charge_key()))
                    .await?
            };
            if charge.status.money_received() {
                let applied = sync_charge(db, gateway, outbox, public_url, charge_id).await?;
                return Ok(applied.unwrap_or(Applied::Unchanged(topup)));
            }
            end_unpaid(db, outbox, public_url, topup_id).await
        }
        (None, _) => end_unpaid(db, outbox, public_url, topup_id).await,
    }
}

/// A pending top-up's time ran out without money: a PIX or transfer request expires (its
/// member told of a transfer), a card top-up fails.
async fn end_unpaid(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    topup_id: i64,
) -> Result<Applied, TopUpError> {
    let mut tx = db.begin().await?;
    let applied = topups::end_unpaid(&mut tx, topup_id).await?;
    follow_up(outbox, &mut tx, &applied, public_url).await?;
    tx.commit().await?;
    Ok(applied)
}

/// A card top-up's recorded charge at its expiry: applied as the provider has it; still
/// processing, its expiry is moved on (a bounded number of times), then the charge is
/// cancelled and the top-up fails unless the provider says it was paid after all.
async fn expire_card_charge(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    public_url: &str,
    topup: TopUp,
    charge_id: &str,
) -> Result<Applied, TopUpError> {
    let applied = sync_charge(db, gateway, outbox, public_url, charge_id).await?;
    let now = current(db, topup.id).await?;
    if now.status != Status::Pending {
        return Ok(applied.unwrap_or(Applied::Unchanged(now)));
    }
    let mut tx = db.begin().await?;
    if let Some(at) = topups::postpone_expiry(&mut tx, topup.id).await? {
        outbox.expire_topup(&mut tx, &now, at).await?;
        tx.commit().await?;
        return Ok(Applied::Unchanged(current(db, topup.id).await?));
    }
    drop(tx);
    let charge = gateway
        .cancel_charge(charge_id, &format!("cancel:{}", topup.charge_key()))
        .await?;
    if charge.status.money_received() {
        let applied = sync_charge(db, gateway, outbox, public_url, charge_id).await?;
        return Ok(applied.unwrap_or(Applied::Unchanged(now)));
    }
    let mut tx = db.begin().await?;
    let applied = topups::decline(&mut tx, topup.id, topups::NOT_CONFIRMED).await?;
    tx.commit().await?;
    Ok(applied)
}

/// Staff confirm a transfer request (pending, or expired: paid late) or a paid top-up under
/// review: credited, its points queued, its member e-mailed, audited (`after_expiry` says
/// whether its time had run out). Two confirmations at once credit once: the
/// second finds it credited (a conflict).
pub async fn confirm(
    db: &PgPool,
    outbox: &impl Outbox,
    public_url: &str,
    scope: Scope,
    staff_id: i64,
    topup_id: i64,
) -> Result<TopUp, TopUpError> {
    let mut tx = db.begin().await?;
    let topup = topups::lock(&mut tx, topup_id, scope.station_id())
        .await?
        .ok_or(TopUpError::NotFound)?;
    let late = topup.status_now(Utc::now()) == Status::Expired;
    let confirmed = topups::confirm(&mut tx, &topup, staff_id).await?;
    follow_up(
        outbox,
        &mut tx,
        &Applied::Credited(confirmed.clone()),
        public_url,
    )
    .await?;
    audit(
        &mut tx,
        Action::TopupConfirm,
        staff_id,
        &confirmed,
        json!({ "after_expiry": late }),
    )
    .await?;
    tx.commit().await?;
    Ok(confirmed)
}

/// Staff refuse a pending transfer request or a top-up under review, audited; a review
/// top-up's charge is refunded at the provider whole: tried at once, and by a
/// `topup.refund` job queued with the decision until the provider takes it (rejecting it
/// again tries at once again).
pub async fn reject(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    scope: Scope,
    staff_id: i64,
    topup_id: i64,
) -> Result<TopUp, TopUpError> {
    let mut tx = db.begin().await?;
    let topup = topups::lock(&mut tx, topup_id, scope.station_id())
        .await?
        .ok_or(TopUpError::NotFound)?;
    let rejected = if topup.status == Status::Rejected && refund_owed(&topup) {
        topup
    } else {
        let rejected = topups::reject(&mut tx, &topup, staff_id).await?;
        audit(&mut tx, Action::TopupReject, staff_id, &rejected, json!({})).await?;
        rejected
    };
    if refund_owed(&rejected) {
        outbox.refund_topup(&mut tx, &rejected).await?;
    }
    tx.commit().await?;
    try_refund_now(db, gateway, &rejected).await;
    current(db, topup_id).await
}

/// Staff refund a credited PIX or card top-up, audited: the charge is refunded at the
/// provider (at once, and by a `topup.refund` job until the provider takes it), the unspent
/// part of its credit taken back and the spent part owed as a debt.
pub async fn refund(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl Outbox,
    scope: Scope,
    staff_id: i64,
    topup_id: i64,
) -> Result<TopUp, TopUpError> {
    let mut tx = db.begin().await?;
    let topup = topups::lock(&mut tx, topup_id, scope.station_id())
        .await?
        .ok_or(TopUpError::NotFound)?;
    let refunded = if topup.status == Status::Refunded && refund_owed(&topup) {
        topup
    } else {
        let (refunded, reversal) = topups::refund(&mut tx, &topup, staff_id).await?;
        let details = json!({ "taken_cents": reversal.taken, "owed_cents": reversal.owed });
        audit(&mut tx, Action::TopupRefund, staff_id, &refunded, details).await?;
        refunded
    };
    if refund_owed(&refunded) {
        outbox.refund_topup(&mut tx, &refunded).await?;
    }
    tx.commit().await?;
    try_refund_now(db, gateway, &refunded).await;
    current(db, topup_id).await
}

/// A charge staff gave back (a rejection or a refund) that the provider has not taken yet.
fn refund_owed(topup: &TopUp) -> bool {
    topup.gateway_charge_id.is_some() && topup.refund_sent_at.is_none()
}

/// The decision's own try at its refund: one the provider does not take now is left to the
/// `topup.refund` job queued with it (the console shows `refund_sent_at` still empty).
async fn try_refund_now(db: &PgPool, gateway: &Gateway, topup: &TopUp) {
    if let Err(err) = send_refund(db, gateway, topup).await {
        tracing::warn!(topup_id = topup.id, error = %err, "top-up refund left to its job");
    }
}

/// The `topup.refund` job's work: the refund of a rejected or refunded top-up's charge, if
/// still owed. Answers whether it was sent now.
pub async fn send_owed_refund(
    db: &PgPool,
    gateway: &Gateway,
    topup_id: i64,
) -> Result<bool, TopUpError> {
    let topup = current(db, topup_id).await?;
    let owed = matches!(topup.status, Status::Rejected | Status::Refunded) && refund_owed(&topup);
    if owed {
        send_refund(db, gateway, &topup).await?;
    }
    Ok(owed)
}

/// Refunds the top-up's charge whole, once (its own idempotency key), and records it.
async fn send_refund(db: &PgPool, gateway: &Gateway, topup: &TopUp) -> Result<(), TopUpError> {
    let Some(charge_id) = topup
        .gateway_charge_id
        .as_deref()
        .filter(|_| refund_owed(topup))
    else {
        return Ok(());
    };
    gateway
        .refund(charge_id, None, &format!("refund:{}", topup.charge_key()))
        .await?;
    let mut conn = db.acquire().await?;
    topups::refund_sent(&mut conn, topup.id).await?;
    Ok(())
}

async fn audit(
    tx: &mut PgConnection,
    action: Action,
    staff_id: i64,
    topup: &TopUp,
    extra: serde_json::Value,
) -> sqlx::Result<()> {
    let mut details = json!({
        "topup_id": topup.id,
        "user_id": topup.user_id,
        "method": topup.method.as_str(),
        "amount_cents": topup.amount,
    });
    if let (Some(details), Some(extra)) = (details.as_object_mut(), extra.as_object()) {
        details.extend(extra.clone());
    }
    staff::record(
        tx,
        AuditRecord {
            user_id: staff_id,
            action,
            station_id: Some(topup.station_id),
            job_ids: &[],
            details,
        },
    )
    .await?;
    Ok(())
}
