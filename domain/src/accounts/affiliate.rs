//! The roster of an affiliated station: the people a union or association already knows,
//! who may join it. Sign-up there starts from the CPF and takes the roster's contact data.

use serde::Serialize;
use sqlx::PgExecutor;

/// Sign-up of a CPF that is not on the station's roster.
pub const NOT_ON_ROSTER: &str =
    "CPF não encontrado na base de filiados. Procure o seu sindicato ou associação.";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct RosterEntry {
    pub id: i64,
    pub station_id: i64,
    pub cpf: String,
    pub name: String,
    pub email: Option<String>,
    pub tel: Option<String>,
}

/// The roster entry of a CPF (its 11 digits) in this station only.
pub async fn find(
    db: impl PgExecutor<'_>,
    station_id: i64,
    cpf: &str,
) -> sqlx::Result<Option<RosterEntry>> {
    sqlx::query_as(
        "SELECT id, station_id, cpf, name, email, tel FROM affiliate_roster
          WHERE station_id = $1 AND cpf = $2",
    )
    .bind(station_id)
    .bind(cpf)
    .fetch_optional(db)
    .await
}
