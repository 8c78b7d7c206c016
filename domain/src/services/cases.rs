//! The cases (the spec's processos) a legal or accounting office follows, as their member
//! sees them: theirs by the account's CPF, whoever recorded them (the desk, an import).

use chrono::NaiveDate;
use sqlx::PgConnection;

use super::{Desk, ServiceRefused};
use crate::shared::ids::{StationId, UserId};

/// A case as its member sees it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Case {
    pub id: i64,
    pub case_number: String,
    pub kind: String,
    pub situation: String,
    pub filed_on: Option<NaiveDate>,
    pub court: String,
    pub title: String,
    /// Centavos; `None` when unknown.
    pub claim_cents: Option<i64>,
    pub link: Option<String>,
    /// Published to the portal: a collective case ('Causas coletivas').
    pub collective: bool,
}

/// The member's cases of `desk` (legal or accounting) in their station, newest filing
/// first (those without a date last); none for an account without a CPF. The station must
/// offer the desk.
pub async fn of_member(
    conn: &mut PgConnection,
    station: StationId,
    user: UserId,
    desk: Desk,
) -> Result<Vec<Case>, ServiceRefused> {
    super::offered(&mut *conn, station, desk).await?;
    let rows = sqlx::query_as(
        "SELECT c.id, c.case_number, c.kind, c.situation, c.filed_on, c.court, c.title,
                c.claim_cents, c.link, c.collective
           FROM service_cases c
           JOIN users u ON u.id = $2 AND u.station_id = c.station_id AND u.cpf = c.cpf
          WHERE c.station_id = $1 AND c.service = $3
          ORDER BY c.filed_on DESC NULLS LAST, c.id DESC",
    )
    .bind(station)
    .bind(user)
    .bind(desk)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows)
}
