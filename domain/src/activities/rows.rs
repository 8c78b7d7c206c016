//! The home's rows (docs/api-activities.md): journeys, now playing and categories of a
//! station, each with its published activities in the row's order. A read is one query
//! (`rows_query`): the rows, then for each row the page of its published activities,
//! then the cards of only those activities.

use chrono::Utc;
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};

use super::catalogue::{ActivityCard, CardRow, card_columns};
use crate::infra::objects::Objects;
use crate::shared::ids::{StationId, UserId};
use crate::shared::paging::Page;

/// A journey's activity, with whether the caller has done it.
#[derive(Debug, Clone)]
pub struct JourneyActivity {
    pub card: ActivityCard,
    pub has_done: bool,
}

#[derive(Debug, Clone)]
pub struct Journey {
    pub id: i64,
    pub name: String,
    /// How many of its activities the caller has done.
    pub completed: usize,
    /// In the journey's order, the done ones first.
    pub activities: Vec<JourneyActivity>,
}

#[derive(Debug, Clone)]
pub struct NowPlaying {
    pub id: i64,
    pub title: String,
    pub activities: Vec<ActivityCard>,
}

/// A category of the home (`participant_categories`).
#[derive(Debug, Clone)]
pub struct Category {
    pub id: i64,
    pub name: String,
    pub icon: Option<String>,
    /// Its published activities, whatever the page.
    pub activity_count: i64,
    /// The page of its published activities, in the category's order.
    pub activities: Vec<ActivityCard>,
}

/// The query of one kind of row: `$1` the station, `$2` the viewer, `$3` one row's id or
/// NULL for all, `$4` and `$5` the page (offset, limit) of each row's activities. `$heads`
/// selects the station's rows as `id, name, icon_key, position`; `$members` is the table of
/// their activities, `$row` its column naming the row.
///
/// The rows are read first (materialised, so what follows runs once per row, not once per
/// card), then how many published activities each has (one grouped join), then each row's
/// page of ids in the row's order: on the members' `(row, position, action_id)` index,
/// stopping at the page's end (whether a member is published is a scalar subquery, which
/// PostgreSQL never turns into a join, so no plan joins and sorts the row's every
/// activity instead). Only then are the page's ids joined to their cards, through
/// `unnest`, so the statement keeps a cached generic plan (see `list_query` in
/// `catalogue`).
macro_rules! rows_query {
    ($heads:literal, $members:literal, $row:literal) => {
        concat!(
            "WITH heads AS MATERIALIZED (",
            $heads,
            " AND ($3::bigint IS NULL OR id = $3)),
             totals AS (
                 SELECT x.",
            $row,
            " AS row_id, count(*) AS total FROM ",
            $members,
            " x JOIN actions pa ON pa.id = x.action_id AND pa.station_id = $1 AND pa.active
                  WHERE x.",
            $row,
            " IN (SELECT id FROM heads)
                  GROUP BY 1),
             pages AS MATERIALIZED (
                 SELECT h.id, h.name, h.icon_key, h.position, coalesce(n.total, 0) AS total,
                        ARRAY(SELECT x.action_id FROM ",
            $members,
            " x WHERE x.",
            $row,
            " = h.id
                                 AND (SELECT pa.active AND pa.station_id = $1
                                        FROM actions pa WHERE pa.id = x.action_id)
                               ORDER BY x.position, x.action_id
                               LIMIT $5 OFFSET $4) AS ids
                   FROM heads h LEFT JOIN totals n ON n.row_id = h.id)
             SELECT r.id AS row_id, r.name AS row_name, r.icon_key AS row_icon,
                    r.total AS row_total, ",
            card_columns!("$2"),
            " FROM pages r
               LEFT JOIN LATERAL unnest(r.ids) WITH ORDINALITY AS m (id, place) ON true
               LEFT JOIN actions a ON a.id = m.id
               LEFT JOIN action_types t ON t.id = a.type_id
              ORDER BY r.position, r.id, m.place"
        )
    };
}

const JOURNEYS: &str = rows_query!(
    "SELECT id, name, NULL::text AS icon_key, position FROM journeys WHERE station_id = $1",
    "journey_actions",
    "journey_id"
);
const NOW_PLAYING: &str = rows_query!(
    "SELECT id, title AS name, NULL::text AS icon_key, position FROM now_playing
      WHERE station_id = $1",
    "now_playing_actions",
    "now_playing_id"
);
const CATEGORIES: &str = rows_query!(
    "SELECT id, name, icon_key, position FROM participant_categories WHERE station_id = $1",
    "category_actions",
    "category_id"
);

/// A row as its query answers it: head, published activities in all, the page's cards.
struct HomeRow {
    id: i64,
    name: String,
    icon_key: Option<String>,
    total: i64,
    cards: Vec<ActivityCard>,
}

/// The rows of `sql` ([`rows_query`]) of `station_id` (only `row_id` when given), each with
/// `page` of its published activities as `viewer` sees them.
async fn read(
    db: &PgPool,
    sql: &'static str,
    station_id: StationId,
    viewer: UserId,
    row_id: Option<i64>,
    page: Page,
) -> sqlx::Result<Vec<HomeRow>> {
    let records: Vec<PgRow> = sqlx::query(sql)
        .bind(station_id)
        .bind(viewer)
        .bind(row_id)
        .bind(page.offset())
        .bind(page.limit())
        .fetch_all(db)
        .await?;
    let now = Utc::now();
    let mut rows: Vec<HomeRow> = Vec::new();
    for record in records {
        let id: i64 = record.try_get("row_id")?;
        if rows.last().is_none_or(|row| row.id != id) {
            rows.push(HomeRow {
                id,
                name: record.try_get("row_name")?,
                icon_key: record.try_get("row_icon")?,
                total: record.try_get("row_total")?,
                cards: Vec::new(),
            });
        }
        // A row without activities on the page is one record with no card.
        if let Some(card) = CardRow::of(&record)?
            && let Some(row) = rows.last_mut()
        {
            row.cards.push(card.into_card(now));
        }
    }
    Ok(rows)
}

/// The station's journeys, each with its activities done ones first and the count done.
pub async fn journeys(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Vec<Journey>> {
    let rows = read(db, JOURNEYS, station_id, user_id, None, Page::UNPAGED).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let mut activities: Vec<JourneyActivity> = row
                .cards
                .into_iter()
                .map(|card| JourneyActivity {
                    has_done: card.participations > 0,
                    card,
                })
                .collect();
            // Stable: done ones first, each group in the journey's order.
            activities.sort_by_key(|activity| !activity.has_done);
            Journey {
                id: row.id,
                name: row.name,
                completed: activities.iter().filter(|a| a.has_done).count(),
                activities,
            }
        })
        .collect())
}

/// The station's now-playing rows.
pub async fn now_playing(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Vec<NowPlaying>> {
    let rows = read(db, NOW_PLAYING, station_id, user_id, None, Page::UNPAGED).await?;
    Ok(rows
        .into_iter()
        .map(|row| NowPlaying {
            id: row.id,
            title: row.name,
            activities: row.cards,
        })
        .collect())
}

/// The station's categories (only `category_id` when given; another station's is none),
/// each with `page` of its published activities and how many it has.
pub async fn categories(
    db: &PgPool,
    station_id: StationId,
    user_id: UserId,
    category_id: Option<i64>,
    page: Page,
) -> sqlx::Result<Vec<Category>> {
    let rows = read(db, CATEGORIES, station_id, user_id, category_id, page).await?;
    Ok(rows
        .into_iter()
        .map(|row| Category {
            id: row.id,
            name: row.name,
            icon: row.icon_key.as_deref().map(Objects::url),
            activity_count: row.total,
            activities: row.cards,
        })
        .collect())
}
