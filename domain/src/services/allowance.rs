//! The members' hourly allowance at a desk (docs/api-services.md "Throttles"): 5 requests an
//! hour per member and desk, appointments and theme suggestions alike, counted on the stored
//! rows. One rule for every desk's requests.

use sqlx::PgConnection;

use super::{AppointmentService, Desk};
use crate::shared::ids::UserId;

/// The 429's text, shared by every desk's requests.
pub const TOO_MANY_REQUESTS: &str =
    "Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.";
/// Requests per member and desk in [`WINDOW_SECONDS`].
pub const PER_HOUR: i64 = 5;
pub const WINDOW_SECONDS: u64 = 3600;

/// `Some(seconds to wait)` once the member has made [`PER_HOUR`] stored requests to the desk
/// in the last hour (appointments; the political desk's theme suggestions), else `None`.
/// The member's lock for the desk, held to the end of the transaction, lines requests up,
/// so two at once cannot both take the last place; the wait told is until the oldest
/// counted request leaves the window.
pub async fn used_up(tx: &mut PgConnection, user: UserId, desk: Desk) -> sqlx::Result<Option<u64>> {
    sqlx::query(
        "SELECT pg_advisory_xact_lock(hashtextextended('services:' || $1 || ':' || $2::text, 0))",
    )
    .bind(desk.as_str())
    .bind(user)
    .execute(&mut *tx)
    .await?;
    let window = WINDOW_SECONDS as f64;
    let (count, wait): (i64, Option<f64>) = if desk == Desk::Political {
        sqlx::query_as(
            "SELECT count(*),
                    min(extract(epoch FROM created_at + make_interval(secs => $2) - now()))::float8
               FROM political_suggestions
              WHERE user_id = $1 AND created_at > now() - make_interval(secs => $2)",
        )
        .bind(user)
        .bind(window)
        .fetch_one(&mut *tx)
        .await?
    } else {
        sqlx::query_as(
            "SELECT count(*),
                    min(extract(epoch FROM created_at + make_interval(secs => $3) - now()))::float8
               FROM service_appointments
              WHERE user_id = $1 AND service = ANY($2)
                AND created_at > now() - make_interval(secs => $3)",
        )
        .bind(user)
        .bind(
            desk.appointment_services()
                .into_iter()
                .map(AppointmentService::as_str)
                .collect::<Vec<_>>(),
        )
        .bind(window)
        .fetch_one(&mut *tx)
        .await?
    };
    if count < PER_HOUR {
        return Ok(None);
    }
    tracing::info!(
        user_id = user.0,
        desk = desk.as_str(),
        "refused: too many requests to a service desk"
    );
    Ok(Some(
        (wait.unwrap_or(window).ceil() as u64).clamp(1, WINDOW_SECONDS),
    ))
}
