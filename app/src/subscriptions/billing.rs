//! STAND-IN for helper "core"'s billing engine (branch i28-core), with the signatures it
//! promised, so the member API builds and its tests run before that branch is merged. On
//! merge, core's file replaces this one whole.

use domain::commerce::gateway::{CardChargeRequest, CardSource, ChargeStatus, GatewayError};
use domain::commerce::gateway::PaymentGateway;
use domain::commerce::payment;
use payments::Gateway;
use sqlx::PgPool;

use crate::outbox::Outbox;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeriodOutcome {
    Paid,
    AlreadyPaid,
    Declined { reason: String },
    Processing,
    Pending,
    NotDue,
}

#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    #[error(transparent)]
    Gateway(#[from] GatewayError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

const DECLINED: &str = "Pagamento recusado pela operadora do cartão.";

pub async fn charge_period(
    db: &PgPool,
    gateway: &Gateway,
    _outbox: &impl Outbox,
    period_id: i64,
) -> Result<PeriodOutcome, BillingError> {
    let mut conn = db.acquire().await?;
    let (subscription_id, user_id, station_id, kind, status, amount, attempts, plan_id, plan_amount): (
        i64, i64, i64, String, String, i64, i32, Option<i64>, Option<i64>,
    ) = sqlx::query_as(
        "SELECT subscription_id, user_id, station_id, kind, status, amount, attempts, plan_id,
                plan_amount FROM subscription_periods WHERE id = $1",
    )
    .bind(period_id)
    .fetch_one(&mut *conn)
    .await?;
    match status.as_str() {
        "paid" => return Ok(PeriodOutcome::AlreadyPaid),
        "failed" => {
            return Ok(PeriodOutcome::Declined {
                reason: DECLINED.into(),
            });
        }
        "void" => return Ok(PeriodOutcome::NotDue),
        _ => {}
    }
    let card: Option<String> = sqlx::query_scalar(
        "SELECT c.gateway_card_id FROM subscriptions s JOIN saved_cards c ON c.id = s.saved_card_id
          WHERE s.id = $1",
    )
    .bind(subscription_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(card) = card else {
        return Ok(PeriodOutcome::NotDue);
    };
    let attempt = attempts + 1;
    let charge_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_charges (station_id, period_id, attempt, method, amount,
                                           provider, idempotency_key)
         VALUES ($1, $2, $3, 'card', $4, $5, 'pending-' || gen_random_uuid()) RETURNING id",
    )
    .bind(station_id)
    .bind(period_id)
    .bind(attempt)
    .bind(amount)
    .bind(gateway.provider())
    .fetch_one(&mut *conn)
    .await?;
    let key = format!("subscription-charge-{charge_id}");
    sqlx::query("UPDATE subscription_charges SET idempotency_key = $2 WHERE id = $1")
        .bind(charge_id)
        .bind(&key)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE subscription_periods SET attempts = $2 WHERE id = $1")
        .bind(period_id)
        .bind(attempt)
        .execute(&mut *conn)
        .await?;
    let customer = payment::customer(&mut conn, user_id).await?;
    drop(conn);
    let answer = gateway
        .create_card_charge(&CardChargeRequest {
            amount_cents: amount,
            installments: 1,
            source: CardSource::SavedCard(card),
            billing_address: None,
            reference: format!("subscription-{subscription_id}"),
            idempotency_key: key,
            customer,
        })
        .await?;
    let mut tx = db.begin().await?;
    let outcome = match answer.status {
        ChargeStatus::Paid => {
            sqlx::query("UPDATE subscription_charges SET status = 'paid', gateway_charge_id = $2, settled_at = now() WHERE id = $1")
                .bind(charge_id).bind(&answer.charge_id).execute(&mut *tx).await?;
            sqlx::query("UPDATE subscription_periods SET status = 'paid', paid_at = now() WHERE id = $1")
                .bind(period_id).execute(&mut *tx).await?;
            if kind == "proration" {
                sqlx::query("UPDATE subscriptions SET plan_id = $2, amount = $3 WHERE id = $1")
                    .bind(subscription_id).bind(plan_id).bind(plan_amount).execute(&mut *tx).await?;
            } else {
                sqlx::query("UPDATE subscriptions SET status = 'active' WHERE id = $1 AND status = 'incomplete'")
                    .bind(subscription_id).execute(&mut *tx).await?;
            }
            PeriodOutcome::Paid
        }
        ChargeStatus::Processing | ChargeStatus::Pending => {
            sqlx::query("UPDATE subscription_charges SET status = 'processing', gateway_charge_id = $2 WHERE id = $1")
                .bind(charge_id).bind(&answer.charge_id).execute(&mut *tx).await?;
            PeriodOutcome::Processing
        }
        _ => {
            let reason = answer.failure_reason.unwrap_or_else(|| DECLINED.into());
            sqlx::query("UPDATE subscription_charges SET status = 'failed', gateway_charge_id = $2, failure_reason = $3, settled_at = now() WHERE id = $1")
                .bind(charge_id).bind(&answer.charge_id).bind(&reason).execute(&mut *tx).await?;
            sqlx::query("UPDATE subscription_periods SET status = 'failed' WHERE id = $1")
                .bind(period_id).execute(&mut *tx).await?;
            if kind == "first" {
                sqlx::query("UPDATE subscriptions SET status = 'ended', ended_at = now() WHERE id = $1")
                    .bind(subscription_id).execute(&mut *tx).await?;
            }
            PeriodOutcome::Declined { reason }
        }
    };
    tx.commit().await?;
    Ok(outcome)
}

pub async fn retry_now(db: &PgPool, subscription_id: i64) -> Result<(), BillingError> {
    sqlx::query(
        "UPDATE subscription_periods SET next_attempt_at = now()
          WHERE subscription_id = $1 AND status = 'due'",
    )
    .bind(subscription_id)
    .execute(db)
    .await?;
    Ok(())
}
