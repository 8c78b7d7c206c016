//! Commerce (docs/api-commerce.md): the cart, the hold, coupons, orders, and what the
//! checkout reads of the member. Every call is a member's and sees only the member's
//! station and the member's own cart, holds and orders.

use domain::commerce::Refusal;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;

use crate::error::ApiError;
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub mod address;
pub mod cart;
pub mod checkout;
pub mod documents;
pub mod members;
pub mod orders;
pub mod payments;
pub mod validator;
pub mod vouchers;

pub fn router() -> OpenApiRouter<AppState> {
    cart::router()
        .merge(checkout::router())
        .merge(orders::router())
        .merge(members::router())
        .merge(documents::router())
        .merge(vouchers::router())
        .merge(validator::router())
        .merge(payments::router())
        .merge(address::router())
}

/// A member reads and changes only their own data: another member's id is refused like
/// the wallet refuses it.
pub(crate) fn own(member: Member, user_id: i64) -> Result<i64, ApiError> {
    if user_id == member.user_id {
        Ok(user_id)
    } else {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    }
}

/// A body's `user_id`, when sent, must be the caller's.
pub(crate) fn own_body(member: Member, user_id: Option<&Value>) -> Result<(), ApiError> {
    match user_id.filter(|v| !v.is_null()) {
        None => Ok(()),
        Some(value) => match whole(value) {
            Some(id) => own(member, id).map(|_| ()),
            None => Err(ApiError::invalid("user_id inválido.")),
        },
    }
}

/// A whole number sent as a JSON number or a numeric string.
pub(crate) fn whole(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

/// The spec's `'product-{id}': quantity` entries of an object, in key order.
pub(crate) fn product_entries(
    object: &serde_json::Map<String, Value>,
) -> Result<Vec<(i64, i64)>, ApiError> {
    let mut entries = Vec::new();
    for (key, value) in object {
        let Some(id) = key.strip_prefix("product-") else {
            continue;
        };
        let id = id
            .parse()
            .map_err(|_| ApiError::invalid(Refusal::ProductNotFound.message()))?;
        let quantity =
            whole(value).ok_or_else(|| ApiError::invalid(Refusal::BadQuantity.message()))?;
        entries.push((id, quantity));
    }
    Ok(entries)
}
