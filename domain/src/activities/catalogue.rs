//! The activities catalogue (docs/api-activities.md): what a member (or a visitor, for
//! public activities) may browse. Every read is scoped by station and shows published
//! activities only; the caller's participations decide `userActions`, `availability` and
//! the prerequisites' `done`. [`create`] writes an activity with its HTML sanitised.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgExecutor, PgPool};
use utoipa::ToSchema;

use crate::infra::objects::Objects;

/// Whether the caller may take part now, in the order the rules are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    DateMissing,
    NotStarted,
    Ended,
    LimitReached,
    Open,
}

impl Availability {
    pub fn at(
        now: DateTime<Utc>,
        start: Option<DateTime<Utc>>,
        end: Option<DateTime<Utc>>,
        limit_per_user: Option<i32>,
        user_actions: i64,
    ) -> Self {
        let (Some(start), Some(end)) = (start, end) else {
            return Self::DateMissing;
        };
        if now < start {
            Self::NotStarted
        } else if now > end {
            Self::Ended
        } else if limit_per_user.is_some_and(|limit| user_actions >= i64::from(limit)) {
            Self::LimitReached
        } else {
            Self::Open
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RedirectLink {
    pub url: String,
}

/// An activity this one requires, `done` when the caller has taken part in it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RequiredActivity {
    pub id: i64,
    pub name: String,
    pub done: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Prerequisites {
    pub action_has_prerequisites: bool,
    pub user_done_prerequisites: bool,
    pub action_prerequisites: Vec<RequiredActivity>,
}

/// What rows, grids and search results show of an activity.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActivityCard {
    pub id: i64,
    pub name: String,
    pub image: Option<String>,
    #[serde(rename = "featuredImage")]
    pub featured_image: Option<String>,
    pub type_id: i16,
    #[serde(rename = "type")]
    pub type_name: String,
    pub points: i32,
    pub additional_cashback: i32,
    /// `points` + `additional_cashback`.
    pub cashback: i64,
    pub click_me_label: Option<String>,
    pub redirect_links: Vec<RedirectLink>,
    #[serde(rename = "participationStart")]
    pub participation_start: Option<DateTime<Utc>>,
    #[serde(rename = "participationEnd")]
    pub participation_end: Option<DateTime<Utc>>,
    #[serde(rename = "limitPerUser")]
    pub limit_per_user: Option<i32>,
    /// The caller's participations in it (0 for visitors).
    #[serde(rename = "userActions")]
    pub user_actions: i64,
    pub availability: Availability,
    pub prerequisites: Prerequisites,
    pub priority: i32,
    #[serde(rename = "priorityCarousel")]
    pub priority_carousel: i32,
    pub featured: bool,
    pub public: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActivityContent)]
pub struct Content {
    pub text: Option<String>,
    pub link: Option<String>,
}

/// An activity's detail: its card and what only the detail page shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Activity {
    #[serde(flatten)]
    pub card: ActivityCard,
    pub station_id: i64,
    /// Sanitised HTML.
    pub description: String,
    /// Sanitised HTML.
    pub rules: String,
    pub has_rules: bool,
    pub feedback_message: Option<String>,
    pub feedback_lottie_id: Option<i64>,
    pub comments_and_likes_enabled: bool,
    pub contents: Vec<Content>,
    pub partner_id: Option<i64>,
}

/// Which of a station's published activities a read wants.
#[derive(Debug, Clone, Copy, Default)]
pub struct Filter<'a> {
    /// Only this activity.
    pub id: Option<i64>,
    /// Only these activities.
    pub ids: Option<&'a [i64]>,
    /// Only featured ones, ordered by `priorityCarousel` instead of `priority`.
    pub featured: bool,
    /// Only public ones.
    pub public: bool,
    /// Only names containing this term, ignoring case and accents.
    pub name: Option<&'a str>,
}

#[derive(Debug, sqlx::FromRow)]
struct CardRow {
    id: i64,
    name: String,
    image_key: Option<String>,
    featured_image_key: Option<String>,
    type_id: i16,
    type_name: String,
    points: i32,
    additional_cashback: i32,
    click_me_label: Option<String>,
    #[sqlx(json)]
    redirect_links: Vec<RedirectLink>,
    participation_start: Option<DateTime<Utc>>,
    participation_end: Option<DateTime<Utc>>,
    limit_per_user: Option<i32>,
    user_actions: i64,
    #[sqlx(json)]
    prerequisites: Vec<RequiredActivity>,
    priority: i32,
    priority_carousel: i32,
    featured: bool,
    public: bool,
}

impl CardRow {
    fn into_card(self, now: DateTime<Utc>) -> ActivityCard {
        let availability = Availability::at(
            now,
            self.participation_start,
            self.participation_end,
            self.limit_per_user,
            self.user_actions,
        );
        ActivityCard {
            id: self.id,
            name: self.name,
            image: self.image_key.as_deref().map(Objects::url),
            featured_image: self.featured_image_key.as_deref().map(Objects::url),
            type_id: self.type_id,
            type_name: self.type_name,
            points: self.points,
            additional_cashback: self.additional_cashback,
            cashback: i64::from(self.points) + i64::from(self.additional_cashback),
            click_me_label: self.click_me_label,
            redirect_links: self.redirect_links,
            participation_start: self.participation_start,
            participation_end: self.participation_end,
            limit_per_user: self.limit_per_user,
            user_actions: self.user_actions,
            availability,
            prerequisites: Prerequisites {
                action_has_prerequisites: !self.prerequisites.is_empty(),
                user_done_prerequisites: self.prerequisites.iter().all(|r| r.done),
                action_prerequisites: self.prerequisites,
            },
            priority: self.priority,
            priority_carousel: self.priority_carousel,
            featured: self.featured,
            public: self.public,
        }
    }
}

/// `\`, `%` and `_` of a search term matched as themselves by `LIKE`.
fn like_escaped(term: &str) -> String {
    term.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// The published activities of `station_id` that `filter` wants, as `viewer` (a member of
/// that station, or `None` for a visitor) sees them: by `priority`, highest first, then id
/// (featured ones by `priorityCarousel`, then id).
pub async fn cards(
    db: impl PgExecutor<'_>,
    station_id: i64,
    viewer: Option<i64>,
    filter: Filter<'_>,
) -> sqlx::Result<Vec<ActivityCard>> {
    let rows: Vec<CardRow> = sqlx::query_as(
        "SELECT a.id, a.name, a.image_key, a.featured_image_key, a.type_id, t.name AS type_name,
                a.points, a.additional_cashback, a.click_me_label,
                coalesce((SELECT jsonb_agg(jsonb_build_object('url', l.url)
                                           ORDER BY l.position, l.id)
                            FROM action_redirect_links l WHERE l.action_id = a.id), '[]')
                    AS redirect_links,
                a.participation_start, a.participation_end, a.limit_per_user,
                (SELECT count(*) FROM participations p
                  WHERE p.action_id = a.id AND p.user_id = $2) AS user_actions,
                coalesce((SELECT jsonb_agg(jsonb_build_object(
                                     'id', r.id, 'name', r.name,
                                     'done', EXISTS (SELECT 1 FROM participations p
                                                      WHERE p.action_id = r.id
                                                        AND p.user_id = $2))
                                           ORDER BY ap.position, r.id)
                            FROM action_prerequisites ap
                            JOIN actions r ON r.id = ap.required_action_id
                           WHERE ap.action_id = a.id), '[]') AS prerequisites,
                a.priority, a.priority_carousel, a.featured, a.public
           FROM actions a
           JOIN action_types t ON t.id = a.type_id
          WHERE a.station_id = $1 AND a.active
            AND ($3::bigint IS NULL OR a.id = $3)
            AND ($4::bigint[] IS NULL OR a.id = ANY ($4))
            AND (NOT $5 OR a.featured)
            AND (NOT $6 OR a.public)
            AND ($7::text IS NULL OR a.name_folded LIKE '%' || fold_search($7) || '%')
          ORDER BY CASE WHEN $5 THEN a.priority_carousel ELSE -a.priority END, a.id",
    )
    .bind(station_id)
    .bind(viewer)
    .bind(filter.id)
    .bind(filter.ids)
    .bind(filter.featured)
    .bind(filter.public)
    .bind(filter.name.map(like_escaped))
    .fetch_all(db)
    .await?;
    let now = Utc::now();
    Ok(rows.into_iter().map(|row| row.into_card(now)).collect())
}

#[derive(Debug, sqlx::FromRow)]
struct DetailRow {
    station_id: i64,
    description: String,
    rules: String,
    feedback_message: Option<String>,
    feedback_lottie_id: Option<i64>,
    comments_and_likes_enabled: bool,
    #[sqlx(json)]
    contents: Vec<Content>,
    partner_id: Option<i64>,
}

/// One published activity of `station_id` (only a public one when `public_only`), or
/// `None`: unknown, another station's, unpublished and (for visitors) private alike.
pub async fn detail(
    db: &PgPool,
    station_id: i64,
    viewer: Option<i64>,
    id: i64,
    public_only: bool,
) -> sqlx::Result<Option<Activity>> {
    let filter = Filter {
        id: Some(id),
        public: public_only,
        ..Filter::default()
    };
    let Some(card) = cards(db, station_id, viewer, filter).await?.pop() else {
        return Ok(None);
    };
    let row: DetailRow = sqlx::query_as(
        "SELECT a.station_id, a.description, a.rules, a.feedback_message, a.feedback_lottie_id,
                a.comments_and_likes_enabled, a.partner_id,
                coalesce((SELECT jsonb_agg(jsonb_build_object('text', c.text, 'link', c.link)
                                           ORDER BY c.position, c.id)
                            FROM action_contents c WHERE c.action_id = a.id), '[]') AS contents
           FROM actions a WHERE a.id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await?;
    Ok(Some(Activity {
        card,
        station_id: row.station_id,
        has_rules: !row.rules.trim().is_empty(),
        description: row.description,
        rules: row.rules,
        feedback_message: row.feedback_message,
        feedback_lottie_id: row.feedback_lottie_id,
        comments_and_likes_enabled: row.comments_and_likes_enabled,
        contents: row.contents,
        partner_id: row.partner_id,
    }))
}

/// True when the station exists (public calls answer 404 for an unknown one).
pub async fn station_exists(db: impl PgExecutor<'_>, station_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM stations WHERE id = $1)")
        .bind(station_id)
        .fetch_one(db)
        .await
}

/// A journey's activity, with whether the caller has done it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JourneyActivity {
    #[serde(flatten)]
    pub card: ActivityCard,
    #[serde(rename = "hasDone")]
    pub has_done: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Journey {
    pub id: i64,
    pub name: String,
    /// How many of its activities the caller has done.
    pub completed: usize,
    /// In the journey's order, the done ones first.
    pub actions: Vec<JourneyActivity>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NowPlaying {
    pub id: i64,
    pub title: String,
    pub actions: Vec<ActivityCard>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CategoryAction {
    pub action: ActivityCard,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ParticipantCategory {
    pub id: i64,
    pub name: String,
    pub icon: Option<String>,
    pub category_actions: Vec<CategoryAction>,
}

/// A row's id, name (or title) and icon key.
type RowHead = (i64, String, Option<String>);

/// Rows of a station (journeys, now playing, categories) and the activities of each, in
/// order; the activities' cards come from one [`cards`] read of the published ones.
struct Rows {
    rows: Vec<RowHead>,
    members: Vec<(i64, i64)>,
    cards: HashMap<i64, ActivityCard>,
}

impl Rows {
    async fn read(
        db: &PgPool,
        station_id: i64,
        viewer: Option<i64>,
        rows: Vec<RowHead>,
        members: Vec<(i64, i64)>,
    ) -> sqlx::Result<Self> {
        let ids: Vec<i64> = members.iter().map(|(_, action_id)| *action_id).collect();
        let filter = Filter {
            ids: Some(&ids),
            ..Filter::default()
        };
        let cards = cards(db, station_id, viewer, filter)
            .await?
            .into_iter()
            .map(|card| (card.id, card))
            .collect();
        Ok(Self {
            rows,
            members,
            cards,
        })
    }

    /// Each row with its published activities' cards, in the members' order.
    fn each(self) -> Vec<(RowHead, Vec<ActivityCard>)> {
        let Self {
            rows,
            members,
            cards,
        } = self;
        rows.into_iter()
            .map(|row| {
                let row_cards = members
                    .iter()
                    .filter(|(row_id, _)| *row_id == row.0)
                    .filter_map(|(_, action_id)| cards.get(action_id).cloned())
                    .collect();
                (row, row_cards)
            })
            .collect()
    }
}

/// The station's journeys, each with its activities done ones first and the count done.
pub async fn journeys(db: &PgPool, station_id: i64, user_id: i64) -> sqlx::Result<Vec<Journey>> {
    let rows = sqlx::query_as(
        "SELECT id, name, NULL::text FROM journeys WHERE station_id = $1 ORDER BY position, id",
    )
    .bind(station_id)
    .fetch_all(db)
    .await?;
    let members = sqlx::query_as(
        "SELECT ja.journey_id, ja.action_id FROM journey_actions ja
           JOIN journeys j ON j.id = ja.journey_id
          WHERE j.station_id = $1 ORDER BY ja.journey_id, ja.position, ja.action_id",
    )
    .bind(station_id)
    .fetch_all(db)
    .await?;
    let rows = Rows::read(db, station_id, Some(user_id), rows, members).await?;
    Ok(rows
        .each()
        .into_iter()
        .map(|((id, name, _), cards)| {
            let mut actions: Vec<JourneyActivity> = cards
                .into_iter()
                .map(|card| JourneyActivity {
                    has_done: card.user_actions > 0,
                    card,
                })
                .collect();
            // Stable: done ones first, each group in the journey's order.
            actions.sort_by_key(|activity| !activity.has_done);
            Journey {
                id,
                name,
                completed: actions.iter().filter(|a| a.has_done).count(),
                actions,
            }
        })
        .collect())
}

/// The station's now-playing rows.
pub async fn now_playing(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
) -> sqlx::Result<Vec<NowPlaying>> {
    let rows = sqlx::query_as(
        "SELECT id, title, NULL::text FROM now_playing WHERE station_id = $1
          ORDER BY position, id",
    )
    .bind(station_id)
    .fetch_all(db)
    .await?;
    let members = sqlx::query_as(
        "SELECT na.now_playing_id, na.action_id FROM now_playing_actions na
           JOIN now_playing n ON n.id = na.now_playing_id
          WHERE n.station_id = $1 ORDER BY na.now_playing_id, na.position, na.action_id",
    )
    .bind(station_id)
    .fetch_all(db)
    .await?;
    let rows = Rows::read(db, station_id, Some(user_id), rows, members).await?;
    Ok(rows
        .each()
        .into_iter()
        .map(|((id, title, _), actions)| NowPlaying { id, title, actions })
        .collect())
}

/// The station's categories (only `category_id` when given; another station's is none).
pub async fn categories(
    db: &PgPool,
    station_id: i64,
    user_id: i64,
    category_id: Option<i64>,
) -> sqlx::Result<Vec<ParticipantCategory>> {
    let rows = sqlx::query_as(
        "SELECT id, name, icon_key FROM participant_categories
          WHERE station_id = $1 AND ($2::bigint IS NULL OR id = $2)
          ORDER BY position, id",
    )
    .bind(station_id)
    .bind(category_id)
    .fetch_all(db)
    .await?;
    let members = sqlx::query_as(
        "SELECT ca.category_id, ca.action_id FROM category_actions ca
           JOIN participant_categories c ON c.id = ca.category_id
          WHERE c.station_id = $1 AND ($2::bigint IS NULL OR c.id = $2)
          ORDER BY ca.category_id, ca.position, ca.action_id",
    )
    .bind(station_id)
    .bind(category_id)
    .fetch_all(db)
    .await?;
    let rows = Rows::read(db, station_id, Some(user_id), rows, members).await?;
    Ok(rows
        .each()
        .into_iter()
        .map(|((id, name, icon_key), cards)| ParticipantCategory {
            id,
            name,
            icon: icon_key.as_deref().map(Objects::url),
            category_actions: cards
                .into_iter()
                .map(|action| CategoryAction { action })
                .collect(),
        })
        .collect())
}

/// The object key of a feedback animation's JSON.
pub async fn lottie_key(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT object_key FROM lottie_files WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// HTML as an activity stores it: ammonia's defaults (no script, style, event handler or
/// `javascript:` URL survives), links opened without the opener.
pub fn sanitise_html(html: &str) -> String {
    ammonia::clean(html)
}

/// A new activity, as the console (and the demo seed, and tests) write one.
#[derive(Debug, Clone, Default)]
pub struct NewActivity {
    pub station_id: i64,
    pub type_id: i16,
    pub name: String,
    pub description: String,
    pub rules: String,
    pub points: i32,
    pub additional_cashback: i32,
    pub image_key: Option<String>,
    pub featured_image_key: Option<String>,
    pub feedback_message: Option<String>,
    pub feedback_lottie_id: Option<i64>,
    pub participation_start: Option<DateTime<Utc>>,
    pub participation_end: Option<DateTime<Utc>>,
    pub limit_per_user: Option<i32>,
    pub comments_and_likes_enabled: bool,
    pub priority: i32,
    pub priority_carousel: i32,
    pub click_me_label: Option<String>,
    pub partner_id: Option<i64>,
    pub featured: bool,
    pub public: bool,
    pub active: bool,
    pub redirect_links: Vec<String>,
    /// Activities required first, in order.
    pub prerequisites: Vec<i64>,
    pub contents: Vec<Content>,
}

/// Writes `activity` with its description and rules sanitised; answers its id.
pub async fn create(db: &PgPool, activity: &NewActivity) -> sqlx::Result<i64> {
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO actions (station_id, type_id, name, description, rules, points,
                              additional_cashback, image_key, featured_image_key,
                              feedback_message, feedback_lottie_id, participation_start,
                              participation_end, limit_per_user, comments_and_likes_enabled,
                              priority, priority_carousel, click_me_label, partner_id,
                              featured, public, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21, $22)
         RETURNING id",
    )
    .bind(activity.station_id)
    .bind(activity.type_id)
    .bind(&activity.name)
    .bind(sanitise_html(&activity.description))
    .bind(sanitise_html(&activity.rules))
    .bind(activity.points)
    .bind(activity.additional_cashback)
    .bind(&activity.image_key)
    .bind(&activity.featured_image_key)
    .bind(&activity.feedback_message)
    .bind(activity.feedback_lottie_id)
    .bind(activity.participation_start)
    .bind(activity.participation_end)
    .bind(activity.limit_per_user)
    .bind(activity.comments_and_likes_enabled)
    .bind(activity.priority)
    .bind(activity.priority_carousel)
    .bind(&activity.click_me_label)
    .bind(activity.partner_id)
    .bind(activity.featured)
    .bind(activity.public)
    .bind(activity.active)
    .fetch_one(&mut *tx)
    .await?;
    for (position, url) in activity.redirect_links.iter().enumerate() {
        sqlx::query(
            "INSERT INTO action_redirect_links (action_id, position, url) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(position as i32)
        .bind(url)
        .execute(&mut *tx)
        .await?;
    }
    for (position, required) in activity.prerequisites.iter().enumerate() {
        // A prerequisite of another station is no prerequisite: the insert skips it.
        sqlx::query(
            "INSERT INTO action_prerequisites (action_id, required_action_id, position)
             SELECT $1, r.id, $3 FROM actions r WHERE r.id = $2 AND r.station_id = $4",
        )
        .bind(id)
        .bind(required)
        .bind(position as i32)
        .bind(activity.station_id)
        .execute(&mut *tx)
        .await?;
    }
    for (position, content) in activity.contents.iter().enumerate() {
        sqlx::query(
            "INSERT INTO action_contents (action_id, position, text, link) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(position as i32)
        .bind(&content.text)
        .bind(&content.link)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    #[test]
    fn availability_checks_dates_then_window_then_limit() {
        let now = Utc::now();
        let (before, after) = (now - Duration::hours(1), now + Duration::hours(1));
        assert_eq!(
            Availability::at(now, None, Some(after), None, 0),
            Availability::DateMissing
        );
        assert_eq!(
            Availability::at(now, Some(after), Some(after), Some(1), 5),
            Availability::NotStarted
        );
        assert_eq!(
            Availability::at(now, Some(before), Some(before), None, 0),
            Availability::Ended
        );
        assert_eq!(
            Availability::at(now, Some(before), Some(after), Some(2), 2),
            Availability::LimitReached
        );
        assert_eq!(
            Availability::at(now, Some(before), Some(after), Some(2), 1),
            Availability::Open
        );
    }

    #[test]
    fn html_loses_scripts_and_event_handlers() {
        let clean = sanitise_html(
            "<p>Oi</p><script>alert(1)</script><img src=x onerror=alert(1)>\
             <a href=\"javascript:alert(1)\">x</a>",
        );
        assert!(clean.contains("<p>Oi</p>"));
        for bad in ["<script", "onerror", "javascript:"] {
            assert!(!clean.contains(bad), "{clean}");
        }
    }

    #[test]
    fn search_terms_match_percent_and_underscore_literally() {
        assert_eq!(like_escaped("50%_a\\"), "50\\%\\_a\\\\");
    }
}
