//! Member-get-member: a member's invite code `{code}-U{inviterId}-E{stationId}`, the
//! station's offer (points for both sides) and the invitation recorded at sign-up, whose
//! points are credited later.

use serde::Serialize;
use sqlx::{PgConnection, PgExecutor};

/// An invite code taken apart. The `code` part is the inviter's random `invite_code`, so
/// a code cannot be made up from a member id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteCode {
    pub code: String,
    pub inviter_id: i64,
    pub station_id: i64,
}

impl InviteCode {
    pub fn parse(value: &str) -> Option<Self> {
        let (rest, station) = value.trim().rsplit_once("-E")?;
        let (code, inviter) = rest.rsplit_once("-U")?;
        let number = |part: &str| {
            (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse::<i64>().ok())
                .flatten()
        };
        let code = code.to_ascii_uppercase();
        let code_ok = code.len() == 8 && code.bytes().all(|b| b.is_ascii_alphanumeric());
        code_ok.then_some(Self {
            code,
            inviter_id: number(inviter)?,
            station_id: number(station)?,
        })
    }

    pub fn format(code: &str, inviter_id: i64, station_id: i64) -> String {
        format!("{code}-U{inviter_id}-E{station_id}")
    }
}

/// A station's active offer. Its id is the `action.id` the sign-up sends back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Rule {
    pub id: i64,
    pub points_inviter: i32,
    pub points_invited: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Inviter {
    pub id: i64,
    pub name: String,
}

/// The station's current offer: the newest active rule.
async fn active_rule(db: impl PgExecutor<'_>, station_id: i64) -> sqlx::Result<Option<Rule>> {
    sqlx::query_as(
        "SELECT id, points_inviter, points_invited FROM mgm_rules
          WHERE station_id = $1 AND active ORDER BY id DESC LIMIT 1",
    )
    .bind(station_id)
    .fetch_optional(db)
    .await
}

/// The inviter of a code: a member of that station, activated, not blocked, whose invite
/// code is the code's first part.
async fn inviter(db: impl PgExecutor<'_>, invite: &InviteCode) -> sqlx::Result<Option<Inviter>> {
    sqlx::query_as(
        "SELECT id, name FROM users
          WHERE id = $1 AND station_id = $2 AND invite_code = $3
            AND active AND deleted_at IS NULL",
    )
    .bind(invite.inviter_id)
    .bind(invite.station_id)
    .bind(&invite.code)
    .fetch_optional(db)
    .await
}

/// What a valid invite code brings: the station's offer and who invites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub rule: Rule,
    pub inviter_id: i64,
    /// The inviter's first name only: the invite is public, the full name need not be.
    pub inviter_first_name: String,
}

/// The offer of an invite code `{code}-U{inviterId}-E{stationId}`: `None` unless the code
/// is well formed, its inviter is an active member of its station whose own invite code it
/// is, and the station has an active offer.
pub async fn offer(db: &sqlx::PgPool, code: &str) -> sqlx::Result<Option<Offer>> {
    let Some(invite) = InviteCode::parse(code) else {
        return Ok(None);
    };
    let Some(inviter) = inviter(db, &invite).await? else {
        return Ok(None);
    };
    let Some(rule) = active_rule(db, invite.station_id).await? else {
        return Ok(None);
    };
    Ok(Some(Offer {
        rule,
        inviter_id: inviter.id,
        inviter_first_name: inviter
            .name
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string(),
    }))
}

/// Records who invited a new member, from the full invite code the sign-up carried: the
/// code must be the inviter's own (its random part matches), of this station, the rule the
/// station's active one and the inviter a member in good standing. False when it does not
/// qualify: a stale or forged invite never blocks a sign-up.
pub async fn record_invitation(
    tx: &mut PgConnection,
    station_id: i64,
    invitee_id: i64,
    invite: &InviteCode,
    rule_id: i64,
) -> sqlx::Result<bool> {
    if invite.station_id != station_id {
        return Ok(false);
    }
    let recorded = sqlx::query(
        "INSERT INTO mgm_invitations (invitee_id, inviter_id, rule_id, station_id)
         SELECT $1, u.id, r.id, $4
           FROM users u, mgm_rules r
          WHERE u.id = $2 AND u.station_id = $4 AND u.invite_code = $5
            AND u.active AND u.deleted_at IS NULL
            AND u.id <> $1 AND r.id = $3 AND r.station_id = $4 AND r.active
         ON CONFLICT (invitee_id) DO NOTHING",
    )
    .bind(invitee_id)
    .bind(invite.inviter_id)
    .bind(rule_id)
    .bind(station_id)
    .bind(&invite.code)
    .execute(&mut *tx)
    .await?;
    Ok(recorded.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        let code = InviteCode::format("AB12CD34", 42, 7);
        assert_eq!(code, "AB12CD34-U42-E7");
        assert_eq!(
            InviteCode::parse(&code),
            Some(InviteCode {
                code: "AB12CD34".into(),
                inviter_id: 42,
                station_id: 7
            })
        );
        assert_eq!(
            InviteCode::parse("ab12cd34-U42-E7").map(|c| c.code),
            Some("AB12CD34".into())
        );
    }

    #[test]
    fn malformed_codes_are_refused() {
        for bad in [
            "",
            "AB12CD34",
            "AB12CD34-U-E7",
            "AB12CD34-U42-E",
            "AB12-U42-E7",
            "AB12CD34-Ux-E7",
            "AB12CD3!-U1-E1",
        ] {
            assert_eq!(InviteCode::parse(bad), None, "{bad}");
        }
    }
}
