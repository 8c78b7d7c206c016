//! Discount coupons: a station's codes with a global use limit, a per-member limit and a
//! window. A use is claimed into a hold with one conditional update on the coupon (global
//! limit), whose row lock then serialises the member's count and the use row (unique per
//! hold); releasing the hold gives the use back.

use serde::Serialize;
use sqlx::PgConnection;

use super::{CommerceResult, Refusal};

/// The coupon as the coupon dialog shows it (spec: `coupon (code, discountValue)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Coupon {
    #[serde(skip)]
    pub id: i64,
    pub code: String,
    /// Centavos.
    #[serde(rename = "discountValue")]
    pub discount_value: i64,
}

/// Codes are compared trimmed and in upper case.
pub fn normalise(code: &str) -> String {
    code.trim().to_uppercase()
}

/// The coupon claimed by a hold, if any.
pub async fn of_checkout(
    conn: &mut PgConnection,
    checkout_id: i64,
) -> sqlx::Result<Option<Coupon>> {
    let row: Option<(i64, String, i64)> = sqlx::query_as(
        "SELECT c.id, c.code, c.discount_value FROM coupon_uses u JOIN coupons c ON c.id = u.coupon_id
          WHERE u.checkout_id = $1 AND u.released_at IS NULL",
    )
    .bind(checkout_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(id, code, discount_value)| Coupon {
        id,
        code,
        discount_value,
    }))
}

/// Claims one use of the coupon for the member's hold, on the caller's transaction. A hold
/// that already holds this coupon answers it again; one that holds another gives it back
/// first.
pub async fn claim(
    conn: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    checkout_id: i64,
    code: &str,
) -> CommerceResult<Coupon> {
    let code = normalise(code);
    if let Some(held) = of_checkout(conn, checkout_id).await? {
        if held.code == code {
            return Ok(held);
        }
        release(conn, checkout_id).await?;
    }
    let found: Option<(i64, i64, bool, bool)> = sqlx::query_as(
        "SELECT id, discount_value,
                (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now()),
                max_uses IS NOT NULL AND uses >= max_uses
           FROM coupons WHERE station_id = $1 AND code = $2 AND active",
    )
    .bind(station_id)
    .bind(&code)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((coupon_id, discount_value, in_window, _)) = found else {
        return Err(Refusal::CouponNotFound.into());
    };
    if !in_window {
        return Err(Refusal::CouponOutOfWindow.into());
    }
    let per_member: Option<i32> = sqlx::query_scalar(
        "UPDATE coupons SET uses = uses + 1
          WHERE id = $1 AND (max_uses IS NULL OR uses < max_uses)
         RETURNING per_member_limit",
    )
    .bind(coupon_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(per_member) = per_member else {
        return Err(Refusal::CouponExhausted.into());
    };
    // Under the coupon's row lock: the member's uses cannot change meanwhile.
    let used: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM coupon_uses u
           LEFT JOIN orders o ON o.checkout_id = u.checkout_id
          WHERE u.coupon_id = $1 AND u.user_id = $2 AND u.released_at IS NULL
            AND (o.id IS NULL OR o.status NOT IN ('expired', 'declined', 'cancelled'))",
    )
    .bind(coupon_id)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if used >= i64::from(per_member) {
        return Err(Refusal::CouponAlreadyUsed.into());
    }
    sqlx::query(
        "INSERT INTO coupon_uses (station_id, coupon_id, user_id, checkout_id)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(station_id)
    .bind(coupon_id)
    .bind(user_id)
    .bind(checkout_id)
    .execute(&mut *conn)
    .await?;
    Ok(Coupon {
        id: coupon_id,
        code,
        discount_value,
    })
}

/// Gives back the coupon use of a hold, once.
pub(crate) async fn release(conn: &mut PgConnection, checkout_id: i64) -> sqlx::Result<()> {
    let released: Option<i64> = sqlx::query_scalar(
        "UPDATE coupon_uses SET released_at = now()
          WHERE checkout_id = $1 AND released_at IS NULL RETURNING coupon_id",
    )
    .bind(checkout_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(coupon_id) = released {
        sqlx::query("UPDATE coupons SET uses = uses - 1 WHERE id = $1")
            .bind(coupon_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
