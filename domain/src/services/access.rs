//! Who may work a station's service desk in the console: staff with a desk grant
//! (`service_desk_grants`: one station, one desk, acting on it), or a console grant
//! (`staff_grants`: `support` acts on every desk of its stations, `viewer` reads them).

use sqlx::PgExecutor;

use super::Desk;
use crate::shared::ids::UserId;
use crate::staff::{Grant, Role, Scope};

/// One desk a staff member may open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeskAccess {
    pub station_id: i64,
    pub station_name: String,
    pub desk: Desk,
    pub can_act: bool,
}

/// A staff member's reach over the desks: their desk grants, and their console grant
/// when they have one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeskReach {
    pub user_id: UserId,
    pub name: String,
    /// Desk grants (each acts on its desk).
    pub desks: Vec<(i64, Desk)>,
    pub console: Option<Grant>,
}

impl DeskReach {
    /// Whether the desk of the station is within reach; `act` asks for more than reading.
    pub fn allows(&self, station_id: i64, desk: Desk, act: bool) -> bool {
        let granted = self.desks.contains(&(station_id, desk));
        let by_console = self.console.as_ref().is_some_and(|grant| {
            grant.scope.covers_station(station_id) && (!act || grant.role == Role::Support)
        });
        granted || by_console
    }

    /// Whether the station is in reach at all (any desk, reading): what decides between
    /// "not found" and "not allowed" for a record of that station.
    pub fn sees_station(&self, station_id: i64) -> bool {
        self.desks.iter().any(|(station, _)| *station == station_id)
            || self
                .console
                .as_ref()
                .is_some_and(|grant| grant.scope.covers_station(station_id))
    }

    /// Everyone reaching nothing is refused the desk altogether.
    pub fn is_empty(&self) -> bool {
        self.desks.is_empty() && self.console.is_none()
    }
}

#[derive(sqlx::FromRow)]
struct StaffRow {
    name: String,
}

/// The reach of an account that may use the console now (role `staff`, activated, not
/// blocked); `None` for everyone else, and for staff with neither kind of grant.
pub async fn reach_of(
    db: &mut sqlx::PgConnection,
    user_id: UserId,
) -> sqlx::Result<Option<DeskReach>> {
    let staff: Option<StaffRow> = sqlx::query_as(
        "SELECT name FROM users
         WHERE id = $1 AND role = 'staff' AND active AND deleted_at IS NULL",
    )
    .bind(user_id)
    .fetch_optional(&mut *db)
    .await?;
    let Some(staff) = staff else {
        return Ok(None);
    };
    let desks: Vec<(i64, Desk)> = sqlx::query_as(
        "SELECT station_id, service FROM service_desk_grants WHERE user_id = $1
         ORDER BY station_id, service",
    )
    .bind(user_id)
    .fetch_all(&mut *db)
    .await?;
    let console = crate::staff::grant_of(&mut *db, user_id).await?;
    let reach = DeskReach {
        user_id,
        name: staff.name,
        desks,
        console,
    };
    Ok((!reach.is_empty()).then_some(reach))
}

/// Every desk the reach opens, with its station's name: desk grants, and for a console
/// grant each desk its stations turn on.
pub async fn desks_in_reach(
    db: impl PgExecutor<'_>,
    reach: &DeskReach,
) -> sqlx::Result<Vec<DeskAccess>> {
    let console_scope = reach.console.as_ref().map(|grant| grant.scope);
    let rows: Vec<(i64, String, Desk)> = sqlx::query_as(
        "SELECT s.id, s.name, d.service
         FROM stations s
         CROSS JOIN LATERAL (VALUES ('legal', s.legal_access), ('accounting', s.accounting_access),
                                    ('health', s.health_access), ('political', s.political_access))
              AS d (service, enabled)
         WHERE (d.enabled AND $2 AND ($3::bigint IS NULL OR s.id = $3))
            OR EXISTS (SELECT 1 FROM service_desk_grants g
                       WHERE g.user_id = $1 AND g.station_id = s.id AND g.service = d.service)
         ORDER BY s.id, d.service",
    )
    .bind(reach.user_id)
    .bind(console_scope.is_some())
    .bind(console_scope.and_then(Scope::station_id))
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(station_id, station_name, desk)| DeskAccess {
            station_id,
            station_name,
            desk,
            can_act: reach.allows(station_id, desk, true),
        })
        .collect())
}

/// Gives a staff account a desk (the account must already have role `staff`).
pub async fn grant_desk(
    db: impl PgExecutor<'_>,
    user_id: i64,
    station_id: i64,
    desk: Desk,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO service_desk_grants (user_id, station_id, service) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(user_id)
    .bind(station_id)
    .bind(desk)
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(desks: Vec<(i64, Desk)>, console: Option<(Role, Scope)>) -> DeskReach {
        DeskReach {
            user_id: UserId(1),
            name: "Equipe".into(),
            desks,
            console: console.map(|(role, scope)| Grant {
                user_id: UserId(1),
                name: "Equipe".into(),
                email: None,
                role,
                scope,
                station_name: None,
            }),
        }
    }

    #[test]
    fn a_desk_grant_acts_on_its_own_desk_only() {
        let lawyer = reach(vec![(7, Desk::Legal)], None);
        assert!(lawyer.allows(7, Desk::Legal, true));
        assert!(!lawyer.allows(7, Desk::Health, false));
        assert!(!lawyer.allows(8, Desk::Legal, false));
        assert!(lawyer.sees_station(7));
        assert!(!lawyer.sees_station(8));
    }

    #[test]
    fn a_console_grant_reaches_every_desk_of_its_stations() {
        let support = reach(vec![], Some((Role::Support, Scope::Station(7))));
        assert!(support.allows(7, Desk::Political, true));
        assert!(!support.allows(8, Desk::Political, false));
        let viewer = reach(vec![], Some((Role::Viewer, Scope::AllStations)));
        assert!(viewer.allows(9, Desk::Health, false));
        assert!(!viewer.allows(9, Desk::Health, true));
        assert!(reach(vec![], None).is_empty());
    }
}
