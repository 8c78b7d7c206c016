//! Members' reports of posts and comments, and staff's review of them (docs/api-feed.md,
//! "Moderation"). A member reports an item once; when `stations.feed_report_threshold`
//! different members have open reports on it, it is hidden in the same transaction, until
//! staff review it: keep shows it again, hide keeps it hidden, remove takes it away for
//! good. A review closes the item's open reports and is audited with it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use super::comments::{self, Refused};
use super::posts::{self, Author};
use super::videos::Video;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{PostId, StationId, UserId};
use crate::shared::paging::{self, Listed};
use crate::staff::{self, Action, AuditRecord, Scope};

pub const REASON_MAX_CHARS: usize = 500;
pub const REASON_TOO_LONG: &str = "O motivo deve ter no máximo 500 caracteres.";
pub const ITEM_NOT_FOUND: &str = "Conteúdo não encontrado.";
pub const ALREADY_REMOVED: &str = "Este conteúdo já foi removido.";

/// What members report. Serialised into the audit log's details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum ContentKind {
    Post,
    Comment,
}

/// Staff's decision on a reported item. Serialised into the audit log's details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum Decision {
    /// Shown again (if reports hid it).
    Keep,
    /// Hidden from the feed; a later review may show it again.
    Hide,
    /// Taken away for good.
    Remove,
}

impl Decision {
    fn action(self) -> Action {
        match self {
            Self::Keep => Action::ContentKeep,
            Self::Hide => Action::ContentHide,
            Self::Remove => Action::ContentRemove,
        }
    }
}

/// Which reported items a list wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportState {
    /// With a report no one reviewed yet.
    Open,
    /// Every report reviewed.
    Reviewed,
}

/// Why a report is refused, as the member reads it.
#[derive(Debug, thiserror::Error)]
pub enum NotReported {
    #[error("{REASON_TOO_LONG}")]
    ReasonTooLong,
    /// What the comment calls refuse (not found, the feed closed, the activity closed),
    /// and a breakage.
    #[error(transparent)]
    Refused(#[from] Refused),
}

impl From<sqlx::Error> for NotReported {
    fn from(err: sqlx::Error) -> Self {
        Self::Refused(err.into())
    }
}

impl IntoFailure for NotReported {
    fn into_failure(self) -> Failure {
        match self {
            Self::ReasonTooLong => Failure::invalid(self.to_string()),
            Self::Refused(refused) => refused.into_failure(),
        }
    }
}

/// Why a review is refused, as staff read it.
#[derive(Debug, thiserror::Error)]
pub enum NotReviewed {
    /// Unknown, outside the grant's scope, or never reported.
    #[error("{ITEM_NOT_FOUND}")]
    NotFound,
    /// Removed already: there is nothing left to decide.
    #[error("{ALREADY_REMOVED}")]
    Removed,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NotReviewed {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoFailure for NotReviewed {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::Removed => Failure::Conflict(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// A reported post or comment, as staff review it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedItem {
    pub kind: ContentKind,
    pub id: i64,
    pub station_id: StationId,
    pub description: String,
    pub image_key: Option<String>,
    pub video: Option<Video>,
    pub author: Author,
    /// Every report of it, reviewed or not.
    pub reports: i64,
    /// The reasons given, oldest first (blank ones left out).
    pub reasons: Vec<String>,
    pub hidden: bool,
    pub removed: bool,
    pub first_reported_at: DateTime<Utc>,
    /// The latest review, and its decision.
    pub reviewed_at: Option<DateTime<Utc>>,
    pub decision: Option<Decision>,
}

/// The reason, trimmed, when it fits.
fn reason(reason: &str) -> Result<&str, NotReported> {
    let reason = reason.trim();
    if reason.chars().count() > REASON_MAX_CHARS {
        Err(NotReported::ReasonTooLong)
    } else {
        Ok(reason)
    }
}

/// Reports post `post_id` (one member `user_id` sees); answers whether this is their first
/// report of it (a second changes nothing). The report that brings the post's open reports
/// to the station's threshold hides it.
pub async fn report_post(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    post_id: PostId,
    why: &str,
) -> Result<bool, NotReported> {
    let why = reason(why)?;
    let mut tx = db.begin().await?;
    // Reports of one post are counted one at a time, under its lock.
    if !comments::lock_post(&mut tx, station_id, user_id, post_id).await? {
        return Err(Refused::PostNotFound.into());
    }
    let first = insert_report(
        &mut tx,
        station_id,
        user_id,
        ContentKind::Post,
        post_id.into(),
        why,
    )
    .await?;
    if first {
        hide_at_threshold(&mut tx, ContentKind::Post, post_id.into()).await?;
    }
    tx.commit().await?;
    Ok(first)
}

/// Reports comment `comment_id` as [`report_post`] does a post; a comment the reports hide
/// leaves its post's count of comments.
pub async fn report_comment(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    comment_id: i64,
    why: &str,
) -> Result<bool, NotReported> {
    let why = reason(why)?;
    let mut tx = db.begin().await?;
    let comment = comments::lock(&mut tx, station_id, user_id, comment_id).await?;
    let first = insert_report(
        &mut tx,
        station_id,
        user_id,
        ContentKind::Comment,
        comment.id,
        why,
    )
    .await?;
    if first {
        let hidden = hide_at_threshold(&mut tx, ContentKind::Comment, comment.id).await?;
        // It was shown when locked, so hidden now means hidden by this report.
        if hidden {
            count_comment(&mut tx, comment.post_id, -1).await?;
        }
    }
    tx.commit().await?;
    Ok(first)
}

async fn insert_report(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    kind: ContentKind,
    id: i64,
    why: &str,
) -> sqlx::Result<bool> {
    let (post_id, comment_id) = match kind {
        ContentKind::Post => (Some(id), None),
        ContentKind::Comment => (None, Some(id)),
    };
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO feed_reports (station_id, user_id, post_id, comment_id, reason)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(post_id)
    .bind(comment_id)
    .bind(why)
    .fetch_optional(conn)
    .await?;
    Ok(inserted.is_some())
}

/// Hides the item when its open reports reach its station's threshold; answers whether it
/// is hidden now.
async fn hide_at_threshold(
    conn: &mut PgConnection,
    kind: ContentKind,
    id: i64,
) -> sqlx::Result<bool> {
    let (items, column) = match kind {
        ContentKind::Post => ("feed_posts", "post_id"),
        ContentKind::Comment => ("comments", "comment_id"),
    };
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE {items} i
            SET hidden_at = CASE
                    WHEN (SELECT count(*) FROM feed_reports r
                           WHERE r.{column} = i.id AND r.reviewed_at IS NULL)
                         >= (SELECT feed_report_threshold FROM stations s
                              WHERE s.id = i.station_id)
                    THEN now() ELSE i.hidden_at END
          WHERE i.id = $1
      RETURNING hidden_at IS NOT NULL"
    )))
    .bind(id)
    .fetch_one(conn)
    .await
}

/// Moves a post's count of visible comments by `delta`, for a comment shown or hidden.
async fn count_comment(
    conn: &mut PgConnection,
    post_id: Option<PostId>,
    delta: i32,
) -> sqlx::Result<()> {
    if let (Some(post_id), false) = (post_id, delta == 0) {
        sqlx::query("UPDATE feed_posts SET comment_count = comment_count + $2 WHERE id = $1")
            .bind(post_id)
            .bind(delta)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// The items reported in `scope` (and `station_id`, if given) that `state` wants: those
/// with open reports first, oldest report first, then the reviewed ones, latest review
/// first; page `page` (from 1) of `per_page`, and how many there are.
pub async fn reported(
    db: &PgPool,
    scope: Scope,
    station_id: Option<StationId>,
    state: Option<ReportState>,
    page: i64,
    per_page: i64,
) -> sqlx::Result<Listed<ReportedItem>> {
    let mut conn = db.acquire().await?;
    let open = state.map(|state| state == ReportState::Open);
    let total = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "{REPORTED} SELECT count(*) FROM listed"
    )))
    .bind(scope.station_id())
    .bind(station_id)
    .bind(None::<ContentKind>)
    .bind(None::<i64>)
    .bind(open);
    let rows = sqlx::query_as::<_, ReportedRow>(sqlx::AssertSqlSafe(format!(
        "{REPORTED} {REPORTED_ROWS}
          ORDER BY l.open_reports > 0 DESC,
                   CASE WHEN l.open_reports > 0 THEN l.first_reported_at END,
                   l.reviewed_at DESC NULLS LAST, l.kind, l.id
          LIMIT $6 OFFSET $7"
    )))
    .bind(scope.station_id())
    .bind(station_id)
    .bind(None::<ContentKind>)
    .bind(None::<i64>)
    .bind(open)
    .bind(per_page)
    .bind((page - 1).saturating_mul(per_page));
    let Listed { items, total } = paging::listed(&mut conn, rows, total).await?;
    Ok(Listed {
        items: into_items(&mut conn, items).await?,
        total,
    })
}

/// Staff member `staff_id` decides on reported item `kind` `id` in `scope`: the item is
/// shown, hidden or removed, its open reports are closed with the decision, and the audit
/// log records it, all in one transaction.
pub async fn review(
    db: &PgPool,
    scope: Scope,
    staff_id: i64,
    kind: ContentKind,
    id: i64,
    decision: Decision,
) -> Result<ReportedItem, NotReviewed> {
    let mut tx = db.begin().await?;
    let Some(target) = lock_reported(&mut tx, scope, kind, id).await? else {
        return Err(NotReviewed::NotFound);
    };
    if target.removed {
        return Err(NotReviewed::Removed);
    }
    let table = match kind {
        ContentKind::Post => "feed_posts",
        ContentKind::Comment => "comments",
    };
    let change = match decision {
        Decision::Keep => "hidden_at = NULL",
        Decision::Hide => "hidden_at = coalesce(hidden_at, now())",
        Decision::Remove => "removed_at = now()",
    };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {change} WHERE id = $1"
    )))
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if kind == ContentKind::Comment {
        let shown_after = decision == Decision::Keep;
        count_comment(
            &mut tx,
            target.post_id,
            i32::from(shown_after) - i32::from(!target.hidden),
        )
        .await?;
    }
    let item_filter = match kind {
        ContentKind::Post => "post_id",
        ContentKind::Comment => "comment_id",
    };
    let closed: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "WITH closed AS (
             UPDATE feed_reports SET reviewed_at = now(), reviewed_by = $2, decision = $3
              WHERE {item_filter} = $1 AND reviewed_at IS NULL RETURNING id
         )
         SELECT count(*) FROM closed"
    )))
    .bind(id)
    .bind(staff_id)
    .bind(decision)
    .fetch_one(&mut *tx)
    .await?;
    staff::record(
        &mut tx,
        AuditRecord {
            user_id: staff_id,
            action: decision.action(),
            station_id: Some(target.station_id),
            job_ids: &[],
            details: json!({
                "kind": kind,
                "id": id,
                "decision": decision,
                "description": target.description,
                "author_id": target.user_id,
                "reports_closed": closed,
            }),
        },
    )
    .await?;
    let item = one(&mut tx, scope, kind, id)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    tx.commit().await?;
    Ok(item)
}

/// A reported item in scope, locked (a comment's post first, as every change of a post's
/// comments takes them).
struct Target {
    station_id: i64,
    user_id: UserId,
    description: String,
    post_id: Option<PostId>,
    hidden: bool,
    removed: bool,
}

async fn lock_reported(
    conn: &mut PgConnection,
    scope: Scope,
    kind: ContentKind,
    id: i64,
) -> sqlx::Result<Option<Target>> {
    let (table, item) = match kind {
        ContentKind::Post => ("feed_posts", "post_id"),
        ContentKind::Comment => ("comments", "comment_id"),
    };
    if kind == ContentKind::Comment {
        let post_id: Option<Option<PostId>> =
            sqlx::query_scalar("SELECT post_id FROM comments WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?;
        if let Some(Some(post_id)) = post_id {
            sqlx::query("SELECT 1 FROM feed_posts WHERE id = $1 FOR NO KEY UPDATE")
                .bind(post_id)
                .execute(&mut *conn)
                .await?;
        }
    }
    let post_id = match kind {
        ContentKind::Post => "NULL::bigint",
        ContentKind::Comment => "t.post_id",
    };
    let found: Option<(i64, UserId, String, Option<PostId>, bool, bool)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT t.station_id, t.user_id, t.description, {post_id},
                    t.hidden_at IS NOT NULL, t.removed_at IS NOT NULL
               FROM {table} t
              WHERE t.id = $1 AND ($2::bigint IS NULL OR t.station_id = $2)
                AND EXISTS (SELECT 1 FROM feed_reports r WHERE r.{item} = t.id)
                FOR NO KEY UPDATE OF t"
        )))
        .bind(id)
        .bind(scope.station_id())
        .fetch_optional(&mut *conn)
        .await?;
    Ok(found.map(
        |(station_id, user_id, description, post_id, hidden, removed)| Target {
            station_id,
            user_id,
            description,
            post_id,
            hidden,
            removed,
        },
    ))
}

/// Reported item `kind` `id` in `scope`, as staff see it.
async fn one(
    conn: &mut PgConnection,
    scope: Scope,
    kind: ContentKind,
    id: i64,
) -> sqlx::Result<Option<ReportedItem>> {
    let rows: Vec<ReportedRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("{REPORTED} {REPORTED_ROWS}")))
            .bind(scope.station_id())
            .bind(None::<i64>)
            .bind(kind)
            .bind(id)
            .bind(None::<bool>)
            .fetch_all(&mut *conn)
            .await?;
    Ok(into_items(conn, rows).await?.pop())
}

/// The reported items, one row each, in the grant's station `$1` and the asked station
/// `$2` (either null for any), only item `$3` `$4` if given, and only those with open
/// reports (`$5` true), without (false) or both (null).
const REPORTED: &str = "
    WITH items AS (
        SELECT CASE WHEN r.post_id IS NULL THEN 'comment' ELSE 'post' END AS kind,
               coalesce(r.post_id, r.comment_id) AS id,
               count(*) AS reports,
               count(*) FILTER (WHERE r.reviewed_at IS NULL) AS open_reports,
               array_remove(array_agg(nullif(btrim(r.reason), '') ORDER BY r.created_at, r.id),
                            NULL) AS reasons,
               min(r.created_at) AS first_reported_at,
               max(r.reviewed_at) AS reviewed_at,
               (array_agg(r.decision ORDER BY r.reviewed_at DESC NULLS LAST, r.id DESC))[1]
                   AS decision
          FROM feed_reports r
         WHERE ($1::bigint IS NULL OR r.station_id = $1)
           AND ($2::bigint IS NULL OR r.station_id = $2)
           AND ($3::text IS NULL
                OR ($3 = 'post' AND r.post_id = $4::bigint)
                OR ($3 = 'comment' AND r.comment_id = $4::bigint))
         GROUP BY 1, 2
    ), listed AS (
        SELECT i.*, coalesce(p.station_id, c.station_id) AS station_id,
               coalesce(p.user_id, c.user_id) AS user_id,
               coalesce(p.description, c.description) AS description,
               p.image_key, p.video_id,
               coalesce(p.hidden_at, c.hidden_at) IS NOT NULL AS hidden,
               coalesce(p.removed_at, c.removed_at) IS NOT NULL AS removed
          FROM items i
          LEFT JOIN feed_posts p ON i.kind = 'post' AND p.id = i.id
          LEFT JOIN comments c ON i.kind = 'comment' AND c.id = i.id
         WHERE $5::boolean IS NULL OR (i.open_reports > 0) = $5
    )";

const REPORTED_ROWS: &str = "
    SELECT l.kind, l.id, l.station_id, l.description, l.image_key, l.video_id,
           l.user_id, u.name AS user_name, u.image AS user_image, l.reports,
           coalesce(l.reasons, '{}') AS reasons, l.hidden, l.removed, l.first_reported_at,
           l.reviewed_at, l.decision
      FROM listed l JOIN users u ON u.id = l.user_id";

#[derive(sqlx::FromRow)]
struct ReportedRow {
    kind: ContentKind,
    id: i64,
    station_id: StationId,
    description: String,
    image_key: Option<String>,
    video_id: Option<i64>,
    user_id: UserId,
    user_name: String,
    user_image: Option<String>,
    reports: i64,
    reasons: Vec<String>,
    hidden: bool,
    removed: bool,
    first_reported_at: DateTime<Utc>,
    reviewed_at: Option<DateTime<Utc>>,
    decision: Option<Decision>,
}

async fn into_items(
    conn: &mut PgConnection,
    rows: Vec<ReportedRow>,
) -> sqlx::Result<Vec<ReportedItem>> {
    let ids: Vec<i64> = rows.iter().filter_map(|row| row.video_id).collect();
    let mut videos = posts::videos_by_id(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| ReportedItem {
            kind: row.kind,
            id: row.id,
            station_id: row.station_id,
            description: row.description,
            image_key: row.image_key,
            video: row.video_id.and_then(|id| videos.remove(&id)),
            author: Author {
                id: row.user_id,
                name: row.user_name,
                image: row.user_image,
            },
            reports: row.reports,
            reasons: row.reasons,
            hidden: row.hidden,
            removed: row.removed,
            first_reported_at: row.first_reported_at,
            reviewed_at: row.reviewed_at,
            decision: row.decision,
        })
        .collect())
}
