//! The sandbox in a build without the `sandbox` feature: its types, and a `Sandbox` that
//! cannot exist, so `Gateway::sandbox()` is always `None` and the code that uses the sandbox
//! only through it (the API's `/sandbox/...` routes, the `sandbox.deliver` job) builds
//! unchanged and answers as it does under another provider. A configuration that names
//! the sandbox is refused at start-up (`crate::check`).

use chrono::{DateTime, Duration, Utc};
use domain::commerce::gateway::{Charge, GatewayError};

pub use crate::sandbox_types::{CardDetails, PixPayment, SIGNATURE_HEADER, WebhookDelivery};

/// No value of it exists in this build.
#[derive(Debug, Clone)]
pub enum Sandbox {}

impl Sandbox {
    pub async fn tokenize_card(&self, _card: &CardDetails) -> Result<String, GatewayError> {
        match *self {}
    }

    pub async fn advance_clock(&self, _by: Duration) -> Result<DateTime<Utc>, GatewayError> {
        match *self {}
    }

    pub async fn pay_pix(
        &self,
        _charge_id: &str,
        _payment: &PixPayment,
    ) -> Result<Charge, GatewayError> {
        match *self {}
    }

    pub async fn due_webhooks(&self, _limit: i64) -> Result<Vec<WebhookDelivery>, GatewayError> {
        match *self {}
    }

    pub async fn mark_delivered(&self, _delivery_id: i64) -> Result<(), GatewayError> {
        match *self {}
    }

    pub async fn mark_failed(
        &self,
        _delivery_id: i64,
        _error: &str,
        _retry_in_seconds: i64,
    ) -> Result<(), GatewayError> {
        match *self {}
    }
}
