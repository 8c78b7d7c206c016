//! Pagar.me v5 (`https://api.pagar.me/core/v5`), the production provider. HTTP Basic with
//! the secret key as user, an `Idempotency-Key` on every write, orders with one PIX or card
//! payment (`POST /orders`), charge reads (`GET /charges/{id}`), cancels and refunds
//! (`DELETE /charges/{id}`, with `amount` for a partial refund), saved cards (the member
//! made a customer once, `POST /customers`, and the card kept in its wallet,
//! `POST /customers/{id}/cards`; a saved card's id is `{customer_id}/{card_id}`, so its
//! orders name the customer it belongs to; removed with
//! `DELETE /customers/{id}/cards/{card_id}`), and webhooks signed with RS256 over the raw
//! body in `X-Webhook-Asymmetric-Signature`, checked against the account's public key
//! (PEM). Statuses are mapped to ours by `charge_status`.

use std::time::Duration as StdDuration;

use base64::Engine;
use chrono::{DateTime, Utc};
use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

use domain::commerce::gateway::{
    BillingAddress, CardCharge, CardChargeRequest, CardExpiry, CardSource, Charge, ChargeStatus,
    Customer, GatewayError, PaymentGateway, PaymentMethod, PixCharge, PixChargeRequest, Refund,
    RefundStatus, SaveCardRequest, SavedCardAtProvider, WebhookEvent,
};
use secrecy::{ExposeSecret, SecretString};

use crate::webhook::parse_event;

pub use domain::infra::config::DEFAULT_PAGARME_URL as DEFAULT_URL;
pub const SIGNATURE_HEADER: &str = "x-webhook-asymmetric-signature";

#[derive(Debug, Clone)]
pub struct Pagarme {
    client: reqwest::Client,
    base_url: String,
    secret_key: SecretString,
    webhook_key: WebhookKey,
}

/// The account's webhook public key, as the RSAPublicKey DER `ring` verifies with.
#[derive(Clone)]
pub struct WebhookKey(Vec<u8>);

impl std::fmt::Debug for WebhookKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WebhookKey({} bytes)", self.0.len())
    }
}

impl WebhookKey {
    /// From a PEM `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS#1).
    pub fn from_pem(pem: &str) -> Result<Self, String> {
        let pem = pem.replace("\\n", "\n");
        let label = pem
            .lines()
            .find_map(|line| {
                line.trim()
                    .strip_prefix("-----BEGIN ")
                    .and_then(|rest| rest.strip_suffix("-----"))
            })
            .ok_or("not a PEM block")?
            .to_string();
        let body: String = pem
            .lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("-----") && !line.is_empty())
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body)
            .map_err(|err| format!("PEM body: {err}"))?;
        match label.as_str() {
            "RSA PUBLIC KEY" => Ok(Self(der)),
            "PUBLIC KEY" => spki_rsa_key(&der).map(|key| Self(key.to_vec())),
            other => Err(format!("expected a PUBLIC KEY, got {other}")),
        }
    }

    /// Checks an RS256 (RSASSA-PKCS1-v1_5, SHA-256) signature over `message`.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            &self.0,
        )
        .verify(message, signature)
        .is_ok()
    }
}

impl Pagarme {
    pub fn new(
        base_url: &str,
        secret_key: SecretString,
        webhook_key: WebhookKey,
        timeout: StdDuration,
    ) -> Result<Self, GatewayError> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .map_err(|err| GatewayError::Unavailable(format!("http client: {err}")))?;
        Ok(Self {
            client,
            base_url: base_url.trim_end_matches('/').to_string(),
            secret_key,
            webhook_key,
        })
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Value, GatewayError> {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base_url))
            .basic_auth(self.secret_key.expose_secret(), Some(""))
            .header("accept", "application/json");
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request.send().await.map_err(transport_error)?;
        let status = answer.status();
        let text = answer.text().await.map_err(transport_error)?;
        if status.is_success() {
            return serde_json::from_str(&text)
                .map_err(|err| GatewayError::Malformed(format!("{path}: {err}")));
        }
        Err(match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => GatewayError::Unauthorized,
            StatusCode::NOT_FOUND => GatewayError::NotFound,
            StatusCode::CONFLICT => GatewayError::IdempotencyConflict,
            StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
                GatewayError::Rejected(error_message(&text))
            }
            status => GatewayError::Unavailable(format!("HTTP {}", status.as_u16())),
        })
    }

    /// Creates an order with one payment and answers its (only) charge. `customer_id`, when
    /// given, names the payer instead of `customer` (a saved card's owner).
    async fn create_order(
        &self,
        reference: &str,
        amount_cents: i64,
        customer: &Customer,
        customer_id: Option<&str>,
        payment: Value,
        idempotency_key: &str,
    ) -> Result<Value, GatewayError> {
        let mut body = json!({
            "code": reference,
            "closed": true,
            "items": [{
                "code": reference,
                "description": format!("Pedido {reference}"),
                "amount": amount_cents,
                "quantity": 1,
            }],
            "payments": [payment],
        });
        match customer_id {
            Some(id) => body["customer_id"] = json!(id),
            None => body["customer"] = customer_json(customer),
        }
        let order = self
            .call(Method::POST, "/orders", Some(body), Some(idempotency_key))
            .await?;
        order
            .pointer("/charges/0")
            .cloned()
            .ok_or_else(|| GatewayError::Rejected(order_failure(&order)))
    }
}

impl PaymentGateway for Pagarme {
    fn provider(&self) -> &'static str {
        "pagarme"
    }

    async fn create_pix_charge(
        &self,
        request: &PixChargeRequest,
    ) -> Result<PixCharge, GatewayError> {
        let charge = self
            .create_order(
                &request.reference,
                request.amount_cents,
                &request.customer,
                None,
                json!({
                    "payment_method": "pix",
                    "pix": {"expires_in": request.expires_in_seconds},
                }),
                &request.idempotency_key,
            )
            .await?;
        let parsed = ChargeBody::from_value(&charge)?;
        let status = parsed.status()?;
        if status == ChargeStatus::Failed {
            return Err(GatewayError::Rejected(
                parsed
                    .failure_reason()
                    .unwrap_or_else(|| "PIX charge failed".into()),
            ));
        }
        let transaction = parsed.last_transaction.unwrap_or_default();
        Ok(PixCharge {
            charge_id: parsed.id,
            status,
            br_code: transaction
                .qr_code
                .ok_or_else(|| GatewayError::Malformed("PIX charge without qr_code".into()))?,
            qr_code_url: transaction.qr_code_url,
            expires_at: transaction
                .expires_at
                .ok_or_else(|| GatewayError::Malformed("PIX charge without expires_at".into()))?,
        })
    }

    async fn create_card_charge(
        &self,
        request: &CardChargeRequest,
    ) -> Result<CardCharge, GatewayError> {
        let mut card = json!({
            "installments": request.installments,
            "statement_descriptor": "FILIA",
        });
        let mut customer_id = None;
        match &request.source {
            CardSource::Token(token) => card["card_token"] = json!(token),
            CardSource::SavedCard(id) => {
                let (customer, card_id) = split_saved_card(id)?;
                customer_id = customer;
                card["card_id"] = json!(card_id);
            }
        }
        // The token holds the card only: its billing address goes beside it.
        if let Some(address) = &request.billing_address {
            card["card"] = json!({ "billing_address": billing_address_json(address) });
        }
        let charge = self
            .create_order(
                &request.reference,
                request.amount_cents,
                &request.customer,
                customer_id,
                json!({"payment_method": "credit_card", "credit_card": card}),
                &request.idempotency_key,
            )
            .await?;
        let parsed = ChargeBody::from_value(&charge)?;
        let status = parsed.status()?;
        Ok(CardCharge {
            failure_reason: (status == ChargeStatus::Failed)
                .then(|| parsed.failure_reason())
                .flatten(),
            charge_id: parsed.id,
            status,
        })
    }

    /// Makes the member a customer when it is not one yet, then keeps the card in its
    /// wallet. Each call has its own idempotency key (`{key}:customer`, `{key}:card`).
    async fn save_card(
        &self,
        request: &SaveCardRequest,
    ) -> Result<SavedCardAtProvider, GatewayError> {
        let customer_id = match &request.customer_id {
            Some(id) => id.clone(),
            None => {
                let customer = self
                    .call(
                        Method::POST,
                        "/customers",
                        Some(customer_json(&request.customer)),
                        Some(&format!("{}:customer", request.idempotency_key)),
                    )
                    .await?;
                customer
                    .get("id")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| GatewayError::Malformed("customer without id".into()))?
            }
        };
        let card = self
            .call(
                Method::POST,
                &format!("/customers/{}/cards", path_id(&customer_id)?),
                Some(json!({
                    "token": request.token,
                    "billing_address": billing_address_json(&request.billing_address),
                })),
                Some(&card_key(&request.idempotency_key, &request.token)),
            )
            .await?;
        let card = CardBody::deserialize(&card)
            .map_err(|err| GatewayError::Malformed(format!("card: {err}")))?;
        if card
            .status
            .as_deref()
            .is_some_and(|status| status != "active")
        {
            return Err(GatewayError::Rejected(format!(
                "card {}",
                card.status.unwrap_or_default()
            )));
        }
        path_id(&card.id)?;
        Ok(SavedCardAtProvider {
            card_id: format!("{customer_id}/{}", card.id),
            customer_id: Some(customer_id),
            brand: card.brand.to_lowercase(),
            last_digits: card.last_four_digits,
            expiry: card
                .exp_month
                .zip(card.exp_year)
                .and_then(|(month, year)| CardExpiry::parse(&format!("{month:02}{year:04}"))),
        })
    }

    /// `DELETE /customers/{customer_id}/cards/{card_id}` (the card's wallet is its
    /// customer's); a card Pagar.me answers 404 for is gone already.
    async fn delete_card(&self, card_id: &str) -> Result<(), GatewayError> {
        let (Some(customer), card) = split_saved_card(card_id)? else {
            return Err(GatewayError::Rejected(
                "a saved card without its customer".into(),
            ));
        };
        let path = format!("/customers/{customer}/cards/{card}");
        match self
            .call(
                Method::DELETE,
                &path,
                None,
                Some(&format!("card-delete-{customer}-{card}")),
            )
            .await
        {
            Ok(_) | Err(GatewayError::NotFound) => Ok(()),
            Err(other) => Err(other),
        }
    }

    async fn get_charge(&self, charge_id: &str) -> Result<Charge, GatewayError> {
        let value = self
            .call(Method::GET, &charge_path(charge_id)?, None, None)
            .await?;
        ChargeBody::from_value(&value)?.into_charge()
    }

    /// Pagar.me's DELETE refunds a paid charge, so the charge is read first and only a
    /// pending one is deleted. A payment landing between the two calls is refunded by the
    /// DELETE; its webhooks (paid, then refunded) tell the order so.
    async fn cancel_charge(
        &self,
        charge_id: &str,
        idempotency_key: &str,
    ) -> Result<Charge, GatewayError> {
        let charge = self.get_charge(charge_id).await?;
        if !matches!(
            charge.status,
            ChargeStatus::Pending | ChargeStatus::Processing
        ) {
            return Ok(charge);
        }
        let value = self
            .call(
                Method::DELETE,
                &charge_path(charge_id)?,
                None,
                Some(idempotency_key),
            )
            .await?;
        ChargeBody::from_value(&value)?.into_charge()
    }

    async fn refund(
        &self,
        charge_id: &str,
        amount_cents: Option<i64>,
        idempotency_key: &str,
    ) -> Result<Refund, GatewayError> {
        let body = amount_cents.map(|amount| json!({ "amount": amount }));
        let value = self
            .call(
                Method::DELETE,
                &charge_path(charge_id)?,
                body,
                Some(idempotency_key),
            )
            .await?;
        let parsed = ChargeBody::from_value(&value)?;
        let charge_status = parsed.status()?;
        let transaction = parsed.last_transaction.clone().unwrap_or_default();
        let status = match transaction.status.as_deref() {
            Some("refunded" | "voided" | "canceled" | "partial_canceled") => RefundStatus::Done,
            Some("pending_refund" | "waiting_refund" | "processing") => RefundStatus::Processing,
            Some("refund_failed" | "with_error" | "failed" | "error_on_refunding") => {
                RefundStatus::Failed
            }
            _ if matches!(
                charge_status,
                ChargeStatus::Refunded | ChargeStatus::PartiallyRefunded
            ) =>
            {
                RefundStatus::Done
            }
            _ => RefundStatus::Processing,
        };
        Ok(Refund {
            refund_id: transaction.id.unwrap_or_else(|| parsed.id.clone()),
            charge_id: parsed.id,
            amount_cents: amount_cents.unwrap_or(transaction.amount.unwrap_or(parsed.amount)),
            status,
        })
    }

    fn verify_webhook(
        &self,
        body: &[u8],
        headers: &HeaderMap,
    ) -> Result<WebhookEvent, GatewayError> {
        let header = headers
            .get(SIGNATURE_HEADER)
            .and_then(|value| value.to_str().ok())
            .ok_or(GatewayError::InvalidSignature)?;
        let encoded = header
            .trim()
            .strip_prefix("sha256=")
            .unwrap_or(header.trim());
        let signature = decode_signature(encoded).ok_or(GatewayError::InvalidSignature)?;
        if !self.webhook_key.verify(body, &signature) {
            return Err(GatewayError::InvalidSignature);
        }
        parse_event("pagarme", body)
    }
}

/// Pagar.me's charge status (with the amounts that tell a partial refund) as ours.
pub fn charge_status(
    status: &str,
    paid_amount: i64,
    canceled_amount: i64,
) -> Result<ChargeStatus, GatewayError> {
    Ok(match status {
        // Underpaid: money arrived but not all of it; not a payment of the order.
        "pending" | "underpaid" => ChargeStatus::Pending,
        "processing" => ChargeStatus::Processing,
        "paid" | "overpaid" if canceled_amount > 0 => ChargeStatus::PartiallyRefunded,
        "paid" | "overpaid" => ChargeStatus::Paid,
        "failed" => ChargeStatus::Failed,
        // A paid charge that is canceled was refunded in full.
        "canceled" if paid_amount > 0 => ChargeStatus::Refunded,
        "canceled" => ChargeStatus::Canceled,
        "refunded" => ChargeStatus::Refunded,
        "chargedback" => ChargeStatus::Chargedback,
        other => return Err(GatewayError::Malformed(format!("charge status {other:?}"))),
    })
}

#[derive(Debug, Clone, Deserialize)]
struct ChargeBody {
    id: String,
    status: String,
    amount: i64,
    #[serde(default)]
    paid_amount: Option<i64>,
    #[serde(default)]
    canceled_amount: Option<i64>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    payment_method: Option<String>,
    #[serde(default)]
    paid_at: Option<DateTime<Utc>>,
    #[serde(default)]
    last_transaction: Option<TransactionBody>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct TransactionBody {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    amount: Option<i64>,
    #[serde(default)]
    qr_code: Option<String>,
    #[serde(default)]
    qr_code_url: Option<String>,
    #[serde(default)]
    expires_at: Option<DateTime<Utc>>,
    #[serde(default)]
    acquirer_message: Option<String>,
    #[serde(default)]
    gateway_response: Option<Value>,
}

impl ChargeBody {
    fn from_value(value: &Value) -> Result<Self, GatewayError> {
        Self::deserialize(value).map_err(|err| GatewayError::Malformed(format!("charge: {err}")))
    }

    fn status(&self) -> Result<ChargeStatus, GatewayError> {
        charge_status(
            &self.status,
            self.paid_amount.unwrap_or(0),
            self.canceled_amount.unwrap_or(0),
        )
    }

    fn failure_reason(&self) -> Option<String> {
        let transaction = self.last_transaction.as_ref()?;
        transaction
            .gateway_response
            .as_ref()
            .and_then(|response| response.pointer("/errors/0/message"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| transaction.acquirer_message.clone())
    }

    fn into_charge(self) -> Result<Charge, GatewayError> {
        let status = self.status()?;
        let method = match self.payment_method.as_deref() {
            Some("pix") => PaymentMethod::Pix,
            Some("credit_card") => PaymentMethod::CreditCard,
            other => {
                return Err(GatewayError::Malformed(format!("payment method {other:?}")));
            }
        };
        let paid = self.paid_amount.unwrap_or(if status.money_received() {
            self.amount
        } else {
            0
        });
        let refunded = match status {
            ChargeStatus::Refunded => self.canceled_amount.unwrap_or(paid),
            _ => self.canceled_amount.unwrap_or(0).min(paid),
        };
        let failure_reason = (status == ChargeStatus::Failed)
            .then(|| self.failure_reason())
            .flatten();
        let expires_at = self.last_transaction.as_ref().and_then(|t| t.expires_at);
        Ok(Charge {
            charge_id: self.id,
            method,
            status,
            amount_cents: self.amount,
            paid_amount_cents: paid,
            refunded_amount_cents: refunded,
            reference: self.code,
            paid_at: self.paid_at,
            expires_at,
            failure_reason,
        })
    }
}

/// Pagar.me's address: `line_1` is "number, street" (its documented order).
/// The idempotency key of saving one card: the customer's key (one per member) and the
/// card's single-use token, digested. A retried call with the same token is the same call;
/// another card of the member is another call (Pagar.me keeps a key's answer for 24 hours:
/// with the member's key alone, a second card would be answered with the first).
fn card_key(customer_key: &str, token: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, token.as_bytes());
    let hex: String = digest.as_ref()[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("{customer_key}:card:{hex}")
}

fn billing_address_json(address: &BillingAddress) -> Value {
    json!({
        "line_1": format!("{}, {}", address.number, address.street),
        "zip_code": address.zip_code,
        "city": address.city,
        "state": address.state,
        "country": "BR",
    })
}

fn customer_json(customer: &Customer) -> Value {
    let mut value = json!({
        "name": customer.name,
        "email": customer.email,
        "document": customer.document,
        "document_type": "CPF",
        "type": "individual",
    });
    if let Some(phone) = customer.phone.as_deref().filter(|p| p.len() >= 10) {
        value["phones"] = json!({"mobile_phone": {
            "country_code": "55",
            "area_code": &phone[..2],
            "number": &phone[2..],
        }});
    }
    value
}

/// Charge ids go into a path: letters, digits and `_` only.
fn charge_path(charge_id: &str) -> Result<String, GatewayError> {
    Ok(format!("/charges/{}", path_id(charge_id)?))
}

/// An id of Pagar.me's that goes into a path or a body: letters, digits and `_` only.
fn path_id(id: &str) -> Result<&str, GatewayError> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(GatewayError::NotFound);
    }
    Ok(id)
}

/// A saved card's id as `save_card` made it, `{customer_id}/{card_id}`: its customer and
/// its card. A bare card id (no customer) is taken as it is.
fn split_saved_card(id: &str) -> Result<(Option<&str>, &str), GatewayError> {
    match id.split_once('/') {
        Some((customer, card)) => Ok((Some(path_id(customer)?), path_id(card)?)),
        None => Ok((None, path_id(id)?)),
    }
}

/// A card in a customer's wallet, as Pagar.me answers it.
#[derive(Debug, Clone, Deserialize)]
struct CardBody {
    id: String,
    #[serde(default)]
    brand: String,
    last_four_digits: String,
    #[serde(default)]
    exp_month: Option<u32>,
    #[serde(default)]
    exp_year: Option<i32>,
    #[serde(default)]
    status: Option<String>,
}

/// `{"message": ..., "errors": {"field": ["..."]}}` as one line.
fn error_message(text: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return "invalid request".into();
    };
    let mut message = value
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("invalid request")
        .to_string();
    if let Some(errors) = value.get("errors").and_then(Value::as_object) {
        for (field, problems) in errors {
            let problems: Vec<&str> = problems
                .as_array()
                .map(|list| list.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            message.push_str(&format!("; {field}: {}", problems.join(", ")));
        }
    }
    message
}

fn order_failure(order: &Value) -> String {
    format!(
        "order {} without charges",
        order.get("status").and_then(Value::as_str).unwrap_or("?")
    )
}

fn transport_error(err: reqwest::Error) -> GatewayError {
    if err.is_timeout() {
        GatewayError::Unavailable("timeout".into())
    } else if err.is_connect() {
        GatewayError::Unavailable("connection failed".into())
    } else {
        GatewayError::Unavailable(err.without_url().to_string())
    }
}

fn decode_signature(encoded: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    STANDARD
        .decode(encoded)
        .or_else(|_| URL_SAFE_NO_PAD.decode(encoded.trim_end_matches('=')))
        .ok()
}

/// The RSAPublicKey inside a SubjectPublicKeyInfo of algorithm rsaEncryption.
fn spki_rsa_key(der: &[u8]) -> Result<&[u8], String> {
    const RSA_ENCRYPTION: &[u8] = &[
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01,
    ];
    let (spki, _) = der_element(der, 0x30).ok_or("not a SubjectPublicKeyInfo")?;
    let (algorithm, rest) = der_element(spki, 0x30).ok_or("no algorithm")?;
    if !algorithm.starts_with(RSA_ENCRYPTION) {
        return Err("not an RSA key".into());
    }
    let (bits, _) = der_element(rest, 0x03).ok_or("no key bits")?;
    match bits.split_first() {
        Some((0, key)) => Ok(key),
        _ => Err("bad key bits".into()),
    }
}

/// One DER element of tag `tag` at the start of `input`: (its content, what follows).
fn der_element(input: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (&found, rest) = input.split_first()?;
    if found != tag {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7F);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count]
            .iter()
            .fold(0usize, |len, &b| (len << 8) | usize::from(b));
        (len, &rest[count..])
    };
    (rest.len() >= len).then(|| rest.split_at(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_ours() {
        let cases = [
            ("pending", 0, 0, ChargeStatus::Pending),
            ("underpaid", 500, 0, ChargeStatus::Pending),
            ("processing", 0, 0, ChargeStatus::Processing),
            ("paid", 1000, 0, ChargeStatus::Paid),
            ("overpaid", 1200, 0, ChargeStatus::Paid),
            ("paid", 1000, 300, ChargeStatus::PartiallyRefunded),
            ("failed", 0, 0, ChargeStatus::Failed),
            ("canceled", 0, 0, ChargeStatus::Canceled),
            ("canceled", 1000, 1000, ChargeStatus::Refunded),
            ("refunded", 1000, 1000, ChargeStatus::Refunded),
            ("chargedback", 1000, 0, ChargeStatus::Chargedback),
        ];
        for (status, paid, canceled, ours) in cases {
            assert_eq!(
                charge_status(status, paid, canceled).expect(status),
                ours,
                "{status}"
            );
        }
        assert!(charge_status("exploded", 0, 0).is_err());
    }

    #[test]
    fn each_card_saved_has_its_own_key_and_a_retry_the_same() {
        let first = card_key("customer-7", "tok_first");
        assert_eq!(first, card_key("customer-7", "tok_first"));
        assert_ne!(first, card_key("customer-7", "tok_second"));
        assert!(first.starts_with("customer-7:card:"));
        assert!(!first.contains("tok_first"), "{first}");
    }

    #[test]
    fn charge_ids_cannot_escape_the_path() {
        assert_eq!(
            charge_path("ch_abc123").expect("valid"),
            "/charges/ch_abc123"
        );
        for bad in ["", "../orders", "ch_1?x=1", "ch 1"] {
            assert!(charge_path(bad).is_err(), "{bad}");
        }
        assert_eq!(
            split_saved_card("cus_1/card_2").expect("valid"),
            (Some("cus_1"), "card_2")
        );
        assert_eq!(split_saved_card("card_2").expect("valid"), (None, "card_2"));
        for bad in ["cus_1/", "/card_2", "cus/1/card", "cus_1/card_2?x"] {
            assert!(split_saved_card(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn error_answers_read_as_one_line() {
        let text = r#"{"message":"The request is invalid.","errors":{"order.customer.document":["The document field is invalid."]}}"#;
        assert_eq!(
            error_message(text),
            "The request is invalid.; order.customer.document: The document field is invalid."
        );
        assert_eq!(error_message("<html>"), "invalid request");
    }

    #[test]
    fn a_bad_pem_is_refused() {
        assert!(WebhookKey::from_pem("hello").is_err());
        assert!(
            WebhookKey::from_pem("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----")
                .is_err()
        );
    }
}
