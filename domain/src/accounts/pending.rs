//! Accounts that signed up and wait for activation: the ones a new activation code may be
//! sent to (active, deleted or another station's accounts never are).

use sqlx::PgExecutor;

/// A pending account of the station by id: its name and e-mail (an account signed up
/// without one has none to send a code to).
pub async fn by_id(
    db: impl PgExecutor<'_>,
    station_id: i64,
    user_id: i64,
) -> sqlx::Result<Option<(String, Option<String>)>> {
    sqlx::query_as(
        "SELECT name, email FROM users
          WHERE id = $1 AND station_id = $2 AND NOT active AND deleted_at IS NULL",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_optional(db)
    .await
}

/// The pending account of the station with this e-mail: its id and name.
pub async fn by_email(
    db: impl PgExecutor<'_>,
    station_id: i64,
    email: &str,
) -> sqlx::Result<Option<(i64, String)>> {
    sqlx::query_as(
        "SELECT id, name FROM users
          WHERE station_id = $1 AND email = $2 AND NOT active AND deleted_at IS NULL",
    )
    .bind(station_id)
    .bind(email)
    .fetch_optional(db)
    .await
}
