//! Trophies (spec 001, issue 14): rules as data (`trophies.rule`, see the migration),
//! granted by one idempotent statement that the job run on each participation calls for
//! its member and the nightly backfill calls for everyone; what a member holds.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::participation;
use crate::infra::objects::Objects;
use crate::shared::ids::UserId;

/// A trophy's rule, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// N different activities taken part in.
    ActivitiesDone(i32),
    /// N activities of the category taken part in.
    CategoryDone { category_id: i64, threshold: i32 },
    /// Every activity of the journey taken part in.
    JourneyDone(i64),
    /// N different quizzes won.
    QuizzesWon(i32),
}

/// A trophy a member holds.
#[derive(Debug, Clone)]
pub struct MemberTrophy {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub trophy_image: Option<String>,
    /// When it was granted.
    pub granted_at: DateTime<Utc>,
}

/// Whether trophy `t`'s rule is met by member `u` (the SQL of [`grant`], [`held_unmet`] and
/// [`revoke_unmet`]).
macro_rules! rule_met {
    () => {
        r#"CASE t.rule
                WHEN 'activities_done' THEN
                    (SELECT count(DISTINCT p.action_id) FROM participations p
                      WHERE p.user_id = u.id) >= t.threshold
                WHEN 'category_done' THEN
                    (SELECT count(DISTINCT p.action_id) FROM participations p
                       JOIN category_actions c ON c.action_id = p.action_id
                      WHERE c.category_id = t.category_id AND p.user_id = u.id) >= t.threshold
                WHEN 'journey_done' THEN
                    EXISTS (SELECT 1 FROM journey_actions j WHERE j.journey_id = t.journey_id)
                    AND NOT EXISTS (SELECT 1 FROM journey_actions j
                                     WHERE j.journey_id = t.journey_id
                                       AND NOT EXISTS (SELECT 1 FROM participations p
                                                        WHERE p.action_id = j.action_id
                                                          AND p.user_id = u.id))
                WHEN 'quizzes_won' THEN
                    (SELECT count(DISTINCT r.research_id) FROM research_attempts r
                      WHERE r.user_id = u.id AND r.won) >= t.threshold
                ELSE false
                END
"#
    };
}

/// Grants every trophy whose rule is met and is not held yet, to `user_id` only or (with
/// `None`) to every member of every station; answers how many were granted. One statement,
/// so concurrent runs (a job per participation, the backfill) cannot grant a trophy twice:
/// the primary key skips what another run just inserted.
pub async fn grant(conn: &mut PgConnection, user_id: Option<i64>) -> sqlx::Result<u64> {
    let granted = sqlx::query(concat!(
        r#"INSERT INTO member_trophies (trophy_id, user_id, station_id)
         SELECT t.id, u.id, t.station_id
           FROM trophies t
           JOIN users u ON u.station_id = t.station_id
          WHERE t.active
            AND ($1::bigint IS NULL OR u.id = $1)
            AND NOT EXISTS (SELECT 1 FROM member_trophies m
                             WHERE m.trophy_id = t.id AND m.user_id = u.id)
            AND "#,
        rule_met!(),
        r#"
         ON CONFLICT DO NOTHING"#
    ))
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(granted.rows_affected())
}

/// Grants `user_id` the trophies the member now meets, under the member's lock (as
/// participations and annulments take it: an annulment never lands between what a grant
/// read and what it wrote); answers how many.
pub async fn grant_member(db: &PgPool, user_id: i64) -> sqlx::Result<u64> {
    let mut tx = db.begin().await?;
    participation::lock_member(&mut tx, crate::shared::ids::UserId(user_id)).await?;
    let granted = grant(&mut tx, Some(user_id)).await?;
    tx.commit().await?;
    Ok(granted)
}

/// Members read per statement by [`backfill`].
const BACKFILL_BATCH: i64 = 500;

/// The nightly backfill: [`grant_member`] for every member who took part in anything (every
/// rule counts participations) of a station with an active trophy, in batches by id, so it
/// holds one member's lock at a time and no statement reads every station's participations
/// at once.
pub async fn backfill(db: &PgPool) -> sqlx::Result<u64> {
    let (mut after, mut granted) = (0_i64, 0_u64);
    loop {
        let members: Vec<i64> = sqlx::query_scalar(
            "SELECT u.id FROM users u
              WHERE u.id > $1
                AND EXISTS (SELECT 1 FROM trophies t WHERE t.station_id = u.station_id AND t.active)
                AND EXISTS (SELECT 1 FROM participations p WHERE p.user_id = u.id)
              ORDER BY u.id LIMIT $2",
        )
        .bind(after)
        .bind(BACKFILL_BATCH)
        .fetch_all(db)
        .await?;
        let Some(&last) = members.last() else {
            return Ok(granted);
        };
        for user_id in members {
            granted += grant_member(db, user_id).await?;
        }
        after = last;
    }
}

/// The trophies `user_id` holds whose rule is not met now (a journey that gained an
/// activity since): [`revoke_unmet`] leaves them, as no annulment took them.
pub async fn held_unmet(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(concat!(
        r#"SELECT t.id FROM member_trophies m
             JOIN trophies t ON t.id = m.trophy_id
             JOIN users u ON u.id = m.user_id
          WHERE m.user_id = $1 AND NOT ("#,
        rule_met!(),
        r#")"#
    ))
    .bind(user_id)
    .fetch_all(conn)
    .await
}

/// Takes back from `user_id` every trophy whose rule is no longer met, but those of
/// `unmet_before` (from [`held_unmet`] before a participation was annulled): what the
/// annulment took; answers their names.
pub async fn revoke_unmet(
    conn: &mut PgConnection,
    user_id: i64,
    unmet_before: &[i64],
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(concat!(
        r#"DELETE FROM member_trophies m
            USING trophies t, users u
          WHERE m.user_id = $1 AND t.id = m.trophy_id AND u.id = m.user_id
            AND t.id <> ALL ($2) AND NOT ("#,
        rule_met!(),
        r#")
         RETURNING t.name"#
    ))
    .bind(user_id)
    .bind(unmet_before)
    .fetch_all(conn)
    .await
}

/// The trophies `user_id` holds, newest first.
pub async fn held(db: impl PgExecutor<'_>, user_id: UserId) -> sqlx::Result<Vec<MemberTrophy>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        id: i64,
        name: String,
        description: String,
        image_key: Option<String>,
        granted_at: DateTime<Utc>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT t.id, t.name, t.description, t.image_key, m.granted_at
           FROM member_trophies m JOIN trophies t ON t.id = m.trophy_id
          WHERE m.user_id = $1
          ORDER BY m.granted_at DESC, t.id DESC",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| MemberTrophy {
            id: row.id,
            name: row.name,
            description: row.description,
            trophy_image: row.image_key.as_deref().map(Objects::url),
            granted_at: row.granted_at,
        })
        .collect())
}

/// A new trophy, as the console (and the demo seed, and tests) write one.
#[derive(Debug, Clone)]
pub struct NewTrophy {
    pub station_id: i64,
    pub name: String,
    pub description: String,
    pub image_key: Option<String>,
    pub rule: Rule,
}

pub async fn create(db: impl PgExecutor<'_>, trophy: &NewTrophy) -> sqlx::Result<i64> {
    let (rule, threshold, category_id, journey_id) = match trophy.rule {
        Rule::ActivitiesDone(n) => ("activities_done", n, None, None),
        Rule::CategoryDone {
            category_id,
            threshold,
        } => ("category_done", threshold, Some(category_id), None),
        Rule::JourneyDone(journey_id) => ("journey_done", 1, None, Some(journey_id)),
        Rule::QuizzesWon(n) => ("quizzes_won", n, None, None),
    };
    sqlx::query_scalar(
        "INSERT INTO trophies (station_id, name, description, image_key, rule, threshold,
                               category_id, journey_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(trophy.station_id)
    .bind(&trophy.name)
    .bind(&trophy.description)
    .bind(&trophy.image_key)
    .bind(rule)
    .bind(threshold)
    .bind(category_id)
    .bind(journey_id)
    .fetch_one(db)
    .await
}
