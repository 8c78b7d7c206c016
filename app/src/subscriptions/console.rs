//! What support staff do to a subscription from the console: try its unpaid period again
//! now, or cancel it. Each is recorded in the audit log.

use domain::commerce::gateway::PaymentGateway;
use domain::staff::{self, Action, AuditRecord, Scope};
use domain::subscriptions::subscribe::{self, SubscribeError};
use payments::Gateway;
use serde_json::json;
use sqlx::PgPool;

use super::billing;
use super::subscribe::SubscriptionError;

/// Tries the subscription's unpaid period again now (`billing::retry_now`), audited.
pub async fn retry(
    db: &PgPool,
    gateway: &Gateway,
    outbox: &impl crate::outbox::Outbox,
    scope: Scope,
    staff_id: i64,
    subscription_id: i64,
) -> Result<(), SubscriptionError> {
    let mut tx = db.begin().await?;
    let (locked, station_id, user_id) =
        subscribe::lock_for_staff(&mut tx, subscription_id, scope.station_id()).await?;
    if !locked.status.is_live() {
        return Err(SubscribeError::NotFound.into());
    }
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_id,
            action: Action::SubscriptionRetry,
            station_id: Some(station_id.0),
            job_ids: &[],
            details: json!({ "subscription_id": subscription_id, "user_id": user_id.0 }),
        },
    )
    .await?;
    tx.commit().await?;
    billing::retry_now(db, gateway, outbox, subscription_id).await?;
    Ok(())
}

/// Cancels a subscription as the member's cancel does (a paid-up one runs to its period's
/// end, one not paid up ends now), audited.
pub async fn cancel(
    db: &PgPool,
    gateway: &Gateway,
    scope: Scope,
    staff_id: i64,
    subscription_id: i64,
) -> Result<(), SubscriptionError> {
    let now = gateway.now().await?;
    let mut tx = db.begin().await?;
    let (locked, station_id, user_id) =
        subscribe::lock_for_staff(&mut tx, subscription_id, scope.station_id()).await?;
    subscribe::cancel(
        &mut tx,
        &locked,
        Some("Cancelada pela equipe de suporte"),
        now,
    )
    .await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_id,
            action: Action::SubscriptionCancel,
            station_id: Some(station_id.0),
            job_ids: &[],
            details: json!({ "subscription_id": subscription_id, "user_id": user_id.0 }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
