//! What every provider's webhook shares: the event types' names (the sandbox speaks
//! Pagar.me's), and the dedupe table `payment_events`, where each event is recorded once so
//! a repeated delivery is skipped.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use domain::commerce::gateway::{GatewayError, WebhookEvent, WebhookKind};

/// The kind of a Pagar.me-style event type (`charge.paid`, `order.paid`, ...).
pub fn kind_from_event_type(event_type: &str) -> WebhookKind {
    match event_type {
        "charge.paid" | "order.paid" => WebhookKind::Paid,
        "charge.processing" => WebhookKind::Processing,
        "charge.payment_failed" | "order.payment_failed" => WebhookKind::PaymentFailed,
        "charge.canceled" | "order.canceled" => WebhookKind::Canceled,
        "charge.refunded" => WebhookKind::Refunded,
        "charge.partial_canceled" | "charge.partial_refunded" => WebhookKind::PartiallyRefunded,
        "charge.refund_failed" => WebhookKind::RefundFailed,
        "charge.chargedback" => WebhookKind::Chargedback,
        other => WebhookKind::Other(other.to_string()),
    }
}

/// The event type we write for a kind (the sandbox's deliveries).
pub fn event_type(kind: &WebhookKind) -> &str {
    match kind {
        WebhookKind::Paid => "charge.paid",
        WebhookKind::Processing => "charge.processing",
        WebhookKind::PaymentFailed => "charge.payment_failed",
        WebhookKind::Canceled => "charge.canceled",
        WebhookKind::Refunded => "charge.refunded",
        WebhookKind::PartiallyRefunded => "charge.partial_refunded",
        WebhookKind::RefundFailed => "charge.refund_failed",
        WebhookKind::Chargedback => "charge.chargedback",
        WebhookKind::Other(name) => name,
    }
}

/// Reads `{"id", "type", "data": {"id"}}` (Pagar.me's shape, which the sandbox also writes).
pub fn parse_event(provider: &'static str, body: &[u8]) -> Result<WebhookEvent, GatewayError> {
    #[derive(serde::Deserialize)]
    struct Body {
        id: String,
        #[serde(rename = "type")]
        kind: String,
        data: Option<serde_json::Value>,
    }
    let parsed: Body = serde_json::from_slice(body)
        .map_err(|err| GatewayError::Malformed(format!("webhook body: {err}")))?;
    let kind = kind_from_event_type(&parsed.kind);
    let data = parsed.data.unwrap_or_default();
    // Order events carry the order; its charge is the first of its charges.
    let charge_id = if parsed.kind.starts_with("order.") {
        data.pointer("/charges/0/id")
    } else {
        data.get("id")
    }
    .and_then(|id| id.as_str())
    .map(str::to_string);
    Ok(WebhookEvent {
        provider,
        event_id: parsed.id,
        kind,
        charge_id,
    })
}

/// Records a verified event; `true` when it is new, `false` when it was seen before (skip
/// it). Call it in the transaction that acts on the event, so a rolled-back attempt leaves
/// the event to be processed again.
pub async fn record_event(
    conn: &mut PgConnection,
    event: &WebhookEvent,
    received_at: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let inserted = sqlx::query(
        "INSERT INTO payment_events (provider, event_id, kind, charge_id, received_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (provider, event_id) DO NOTHING",
    )
    .bind(event.provider)
    .bind(&event.event_id)
    .bind(event.kind.as_str())
    .bind(&event.charge_id)
    .bind(received_at)
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_map_both_ways() {
        for kind in [
            WebhookKind::Paid,
            WebhookKind::Processing,
            WebhookKind::PaymentFailed,
            WebhookKind::Canceled,
            WebhookKind::Refunded,
            WebhookKind::PartiallyRefunded,
            WebhookKind::RefundFailed,
            WebhookKind::Chargedback,
        ] {
            assert_eq!(kind_from_event_type(event_type(&kind)), kind);
        }
        assert_eq!(kind_from_event_type("order.paid"), WebhookKind::Paid);
        assert_eq!(
            kind_from_event_type("customer.created"),
            WebhookKind::Other("customer.created".into())
        );
    }
}
