//! Discount coupons: a station's codes with a global use limit, a per-member limit and a
//! window. A use is claimed into a hold under the coupon's row lock, which serialises the
//! global count, the member's count and the use row (unique per hold); releasing the hold
//! gives the use back, and a payment arriving after that takes it again by the same rules.

use sqlx::PgConnection;

use super::{CommerceResult, Refusal};
use crate::shared::ids::Cents;

/// A coupon a hold claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coupon {
    pub id: i64,
    pub code: String,
    pub discount_value: Cents,
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
    let row: Option<(i64, String, Cents)> = sqlx::query_as(
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
        take_off(conn, checkout_id).await?;
    }
    let found: Option<(i64, Cents, bool)> = sqlx::query_as(
        "SELECT id, discount_value,
                (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())
           FROM coupons WHERE station_id = $1 AND code = $2 AND active",
    )
    .bind(station_id)
    .bind(&code)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((coupon_id, discount_value, in_window)) = found else {
        return Err(Refusal::CouponNotFound.into());
    };
    if !in_window {
        return Err(Refusal::CouponOutOfWindow.into());
    }
    check_use(conn, coupon_id, user_id).await?;
    sqlx::query("UPDATE coupons SET uses = uses + 1 WHERE id = $1")
        .bind(coupon_id)
        .execute(&mut *conn)
        .await?;
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

/// Locks the coupon's row (kept to the commit) and checks that the member may take one
/// more use of it: the global limit, then the member's own. Under that lock neither count
/// can change before the caller takes the use.
pub(crate) async fn check_use(
    conn: &mut PgConnection,
    coupon_id: i64,
    user_id: i64,
) -> CommerceResult<()> {
    let (uses, max_uses, per_member): (i32, Option<i32>, i32) = sqlx::query_as(
        "SELECT uses, max_uses, per_member_limit FROM coupons WHERE id = $1 FOR UPDATE",
    )
    .bind(coupon_id)
    .fetch_one(&mut *conn)
    .await?;
    if max_uses.is_some_and(|max| uses >= max) {
        return Err(Refusal::CouponExhausted.into());
    }
    // A hold released or expired gave its use back (`released_at`), so live holds and
    // orders are what is counted.
    let used: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM coupon_uses
          WHERE coupon_id = $1 AND user_id = $2 AND released_at IS NULL",
    )
    .bind(coupon_id)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if used >= i64::from(per_member) {
        return Err(Refusal::CouponAlreadyUsed.into());
    }
    Ok(())
}

/// The coupon whose use a hold claimed and then gave back (its release), if any: what a
/// payment arriving after the hold ended must take again.
pub(crate) async fn given_back(
    conn: &mut PgConnection,
    checkout_id: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT coupon_id FROM coupon_uses WHERE checkout_id = $1 AND released_at IS NOT NULL",
    )
    .bind(checkout_id)
    .fetch_optional(conn)
    .await
}

/// Takes the given-back use of a hold again, once; the caller has checked it with
/// [`check_use`] under the same coupon lock.
pub(crate) async fn reclaim(conn: &mut PgConnection, checkout_id: i64) -> sqlx::Result<()> {
    let reclaimed: Option<i64> = sqlx::query_scalar(
        "UPDATE coupon_uses SET released_at = NULL
          WHERE checkout_id = $1 AND released_at IS NOT NULL RETURNING coupon_id",
    )
    .bind(checkout_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(coupon_id) = reclaimed {
        sqlx::query("UPDATE coupons SET uses = uses + 1 WHERE id = $1")
            .bind(coupon_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Takes the coupon off a live hold (the member's 'Remover', or another coupon instead):
/// its use is given back and forgotten, so the hold may claim one again and a payment
/// arriving after the hold ended never takes back a coupon its order did not carry.
pub(crate) async fn take_off(conn: &mut PgConnection, checkout_id: i64) -> sqlx::Result<()> {
    let taken_off: Option<i64> = sqlx::query_scalar(
        "DELETE FROM coupon_uses WHERE checkout_id = $1 AND released_at IS NULL RETURNING coupon_id",
    )
    .bind(checkout_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(coupon_id) = taken_off {
        sqlx::query("UPDATE coupons SET uses = uses - 1 WHERE id = $1")
            .bind(coupon_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Gives back the coupon use of a hold that ended unpaid or an order refunded whole, once;
/// the use stays recorded as given back ([`given_back`]).
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
