//! The activities catalogue (docs/api-activities.md): what a member (or a visitor, for
//! public activities) may browse. Every read is scoped by station and shows published
//! activities only; the caller's participations decide `userActions`, `availability` and
//! the prerequisites' `done`. [`create`] writes an activity with its HTML sanitised. The
//! home's rows (journeys, now playing, categories) are in [`super::rows`].

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::postgres::PgRow;
use sqlx::{FromRow, PgConnection, PgExecutor, PgPool, Row};

use super::ActivityType;
use super::video_views::UserVideo;
use super::videos::{ActionVideo, NewVideo, VideoRow, VideoSource};
use crate::infra::objects::Objects;
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::paging::{Listed, Page};

/// Whether the caller may take part now, in the order the rules are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// A link the activity's button opens (read from the query's JSON).
#[derive(Debug, Clone, Deserialize)]
pub struct RedirectLink {
    pub url: String,
}

/// An activity this one requires, `done` when the caller has taken part in it (read from
/// the query's JSON).
#[derive(Debug, Clone, Deserialize)]
pub struct RequiredActivity {
    pub id: ActivityId,
    pub name: String,
    pub done: bool,
}

/// The activities one requires first, and whether the caller has done them all.
#[derive(Debug, Clone)]
pub struct Prerequisites {
    pub any: bool,
    pub all_done: bool,
    /// In the activity's order.
    pub activities: Vec<RequiredActivity>,
}

/// What rows, grids and search results show of an activity.
#[derive(Debug, Clone)]
pub struct ActivityCard {
    pub id: ActivityId,
    pub name: String,
    /// Its image's address.
    pub image: Option<String>,
    /// The carousel's image's address.
    pub featured_image: Option<String>,
    pub type_id: ActivityType,
    /// The type's name (`action_types`).
    pub type_name: String,
    pub points: i32,
    pub additional_cashback: i32,
    /// `points` + `additional_cashback`.
    pub cashback: i64,
    pub click_me_label: Option<String>,
    pub redirect_links: Vec<RedirectLink>,
    pub participation_start: Option<DateTime<Utc>>,
    pub participation_end: Option<DateTime<Utc>>,
    pub limit_per_user: Option<i32>,
    /// The caller's participations in it (0 for visitors).
    pub participations: i64,
    pub availability: Availability,
    pub prerequisites: Prerequisites,
    pub priority: i32,
    pub priority_carousel: i32,
    pub featured: bool,
    pub public: bool,
}

/// A raw content activity's text or link (written by the console, read from the detail's
/// JSON).
#[derive(Debug, Clone, Deserialize)]
pub struct Content {
    pub text: Option<String>,
    pub link: Option<String>,
}

/// An agreement activity's terms (type 15): the checkbox the member ticks and the button
/// that records the participation.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Agreement {
    pub checkbox: String,
    pub button: String,
}

/// A quiz's or survey's research (types 6 to 12), as the detail names it: the questions
/// come from `research::load`, without the answer key.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ResearchRef {
    pub id: i64,
    pub name: String,
    pub question_count: i64,
}

/// An activity's detail: its card and what only the detail page shows.
#[derive(Debug, Clone)]
pub struct Activity {
    pub card: ActivityCard,
    pub station_id: StationId,
    /// Sanitised HTML.
    pub description: String,
    /// Sanitised HTML.
    pub rules: String,
    /// Whether `rules` has any visible text (`<p></p>` has none).
    pub has_rules: bool,
    pub feedback_message: Option<String>,
    pub feedback_lottie_id: Option<i64>,
    pub comments_and_likes_enabled: bool,
    pub contents: Vec<Content>,
    /// An agreement activity's terms (type 15), in order; empty for other types.
    pub agreements: Vec<Agreement>,
    /// A quiz's or survey's research (types 6 to 12); empty for other types.
    pub researches: Vec<ResearchRef>,
    pub partner_id: Option<i64>,
    /// Its videos, in order.
    pub videos: Vec<ActionVideo>,
    /// The member's views of them (none for a visitor), in the videos' order.
    pub views: Vec<UserVideo>,
}

/// Which of a station's published activities a list wants (a visitor's list holds only
/// public ones, whatever the filter).
#[derive(Debug, Clone, Copy, Default)]
pub struct Filter<'a> {
    /// Only featured ones, ordered by `priorityCarousel` instead of `priority`.
    pub featured: bool,
    /// Only names containing this term, ignoring case and accents.
    pub name: Option<&'a str>,
}

/// The select list of an [`ActivityCard`] of the activity `a` (its type `t`) as `$viewer`
/// sees it: `$2` (a member's id) in members' statements, `NULL::bigint` in visitors' own
/// statements (not a NULL parameter: a custom plan folds that away and always looks
/// cheaper than the cached generic one, so each visit would be planned anew). Its
/// correlated subqueries cost an index probe each, so a query computes them only for the
/// rows it answers: the rows are chosen (and paged) first, then joined to `actions a`. Only
/// published prerequisites count; a visitor is shown only the public ones.
macro_rules! card_columns {
    ($viewer:literal) => {
        concat!(
            "a.id, a.name, a.image_key, a.featured_image_key, a.type_id, t.name AS type_name,
             a.points, a.additional_cashback, a.click_me_label,
             coalesce((SELECT jsonb_agg(jsonb_build_object('url', l.url)
                                        ORDER BY l.position, l.id)
                         FROM action_redirect_links l WHERE l.action_id = a.id), '[]')
                 AS redirect_links,
             a.participation_start, a.participation_end, a.limit_per_user,
             (SELECT count(*) FROM participations p
               WHERE p.action_id = a.id AND p.user_id = ",
            $viewer,
            ") + (SELECT count(*) FROM annulled_participations x
                   WHERE x.action_id = a.id AND x.user_id = ",
            $viewer,
            ") AS user_actions,
             coalesce((SELECT jsonb_agg(jsonb_build_object(
                                  'id', r.id, 'name', r.name,
                                  'done', EXISTS (SELECT 1 FROM participations p
                                                   WHERE p.action_id = r.id
                                                     AND p.user_id = ",
            $viewer,
            "))
                                        ORDER BY ap.position, r.id)
                         FROM action_prerequisites ap
                         JOIN actions r ON r.id = ap.required_action_id
                        WHERE ap.action_id = a.id AND r.active
                          AND (",
            $viewer,
            "::bigint IS NOT NULL OR r.public)), '[]') AS prerequisites,
             a.priority, a.priority_carousel, a.featured, a.public"
        )
    };
}
pub(crate) use card_columns;

/// An [`ActivityCard`] as [`card_columns`] reads it.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct CardRow {
    id: ActivityId,
    name: String,
    image_key: Option<String>,
    featured_image_key: Option<String>,
    type_id: ActivityType,
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
    /// The card of a record whose card columns may all be NULL (an outer join that found
    /// no activity): `None` then.
    pub(crate) fn of(record: &PgRow) -> sqlx::Result<Option<Self>> {
        match record.try_get::<Option<i64>, _>("id")? {
            Some(_) => Self::from_row(record).map(Some),
            None => Ok(None),
        }
    }

    pub(crate) fn into_card(self, now: DateTime<Utc>) -> ActivityCard {
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
            participations: self.user_actions,
            availability,
            prerequisites: Prerequisites {
                any: !self.prerequisites.is_empty(),
                all_done: self.prerequisites.iter().all(|r| r.done),
                activities: self.prerequisites,
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

/// The query of a list of cards: `$1` the station, `$2` the viewer, `$3` and `$4` the page
/// (limit, offset), `$5` the search term when `$filter` uses it; `$visible` narrows the
/// list to public activities for visitors. It also says whether the station exists (a
/// visitor's call may name any), saving that call a round trip.
///
/// The count is its own scan (an index-only one for the members' list). The page's ids
/// are read in `$order`, an index's order, so the read stops at the page's end; only then
/// are those ids joined to their cards, through `unnest(ARRAY(...))`, whose length the
/// planner cannot know in any plan. That keeps the statement on a cached generic plan:
/// sqlx prepares it, and PostgreSQL compares the generic plan with the custom ones; with
/// the cards under `LIMIT $3` the generic plan (which guesses 10% of the rows) looked
/// four times as costly, so every request was planned anew. One statement per list,
/// rather than `$n IS NULL OR` switches, for the same reason: a generic plan of a switch
/// cannot use the list's index and folds the search term on every row.
macro_rules! list_query {
    ($viewer:literal, $visible:literal, $filter:literal, $order:literal) => {
        concat!(
            "SELECT n.total, n.station_known, ",
            card_columns!($viewer),
            " FROM (SELECT count(*) AS total,
                           EXISTS (SELECT 1 FROM stations WHERE id = $1) AS station_known
                      FROM actions a
                     WHERE a.station_id = $1 AND a.active ",
            $visible,
            $filter,
            ") n
               LEFT JOIN (unnest(ARRAY(SELECT a.id FROM actions a
                                        WHERE a.station_id = $1 AND a.active ",
            $visible,
            $filter,
            " ORDER BY ",
            $order,
            " LIMIT $3 OFFSET $4)) WITH ORDINALITY AS page (id, place)
                          JOIN actions a ON a.id = page.id
                          JOIN action_types t ON t.id = a.type_id) ON true
              ORDER BY page.place"
        )
    };
}

/// `[members, visitors]` statements of each list (a visitor's has no `$2`).
const ALL: [&str; 2] = [
    list_query!("$2", "", "", "a.priority DESC, a.id"),
    list_query!("NULL::bigint", "AND a.public ", "", "a.priority DESC, a.id"),
];
const FEATURED: [&str; 2] = [
    list_query!("$2", "", "AND a.featured", "a.priority_carousel, a.id"),
    list_query!(
        "NULL::bigint",
        "AND a.public ",
        "AND a.featured",
        "a.priority_carousel, a.id"
    ),
];
const SEARCH: [&str; 2] = [
    list_query!(
        "$2",
        "",
        "AND a.name_folded LIKE (SELECT '%' || fold_search($5) || '%')",
        "a.priority DESC, a.id"
    ),
    list_query!(
        "NULL::bigint",
        "AND a.public ",
        "AND a.name_folded LIKE (SELECT '%' || fold_search($5) || '%')",
        "a.priority DESC, a.id"
    ),
];

/// The published activities of `station_id` that `filter` wants, as `viewer` (a member of
/// that station, or `None` for a visitor, who sees public ones only) sees them: by
/// `priority`, highest first, then id (featured ones by `priorityCarousel`, then id);
/// `page` of them, and how many there are; `None` when there is no such station.
pub async fn list(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    viewer: Option<UserId>,
    filter: Filter<'_>,
    page: Page,
) -> sqlx::Result<Option<Listed<ActivityCard>>> {
    let statements = match (filter.name, filter.featured) {
        (Some(_), _) => SEARCH,
        (None, true) => FEATURED,
        (None, false) => ALL,
    };
    let mut query = sqlx::query(statements[usize::from(viewer.is_none())])
        .bind(station_id)
        .bind(viewer)
        .bind(page.limit())
        .bind(page.offset());
    if let Some(term) = filter.name {
        query = query.bind(like_escaped(term));
    }
    let records = query.fetch_all(db).await?;
    let now = Utc::now();
    let mut listed = Listed {
        items: Vec::with_capacity(records.len()),
        total: 0,
    };
    for record in records {
        if !record.try_get::<bool, _>("station_known")? {
            return Ok(None);
        }
        listed.total = record.try_get("total")?;
        // A page past the end is one record with the count and no card.
        if let Some(card) = CardRow::of(&record)? {
            listed.items.push(card.into_card(now));
        }
    }
    Ok(Some(listed))
}

/// The first [`Page::UNPAGED_LIMIT`] published activities of `station_id` that `filter`
/// wants, as [`list`] orders them.
pub async fn cards(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    viewer: Option<UserId>,
    filter: Filter<'_>,
) -> sqlx::Result<Vec<ActivityCard>> {
    let listed = list(db, station_id, viewer, filter, Page::UNPAGED).await?;
    Ok(listed.map(|listed| listed.items).unwrap_or_default())
}

#[derive(Debug, sqlx::FromRow)]
struct DetailRow {
    #[sqlx(flatten)]
    card: CardRow,
    station_id: StationId,
    description: String,
    rules: String,
    feedback_message: Option<String>,
    feedback_lottie_id: Option<i64>,
    comments_and_likes_enabled: bool,
    #[sqlx(json)]
    contents: Vec<Content>,
    #[sqlx(json)]
    agreements: Vec<Agreement>,
    #[sqlx(json)]
    researches: Vec<ResearchRef>,
    partner_id: Option<i64>,
    #[sqlx(json)]
    videos: Vec<VideoRow>,
    #[sqlx(json)]
    user_videos: Vec<UserVideo>,
}

/// The detail's query: `$1` the station, `$2` the viewer (members), `$3` the activity;
/// `$visible` narrows it to a public one for visitors.
macro_rules! detail_query {
    ($viewer:literal, $visible:literal) => {
        concat!(
            "SELECT ",
            card_columns!($viewer),
            ", a.station_id, a.description, a.rules, a.feedback_message, a.feedback_lottie_id,
               a.comments_and_likes_enabled, a.partner_id,
               coalesce((SELECT jsonb_agg(jsonb_build_object('text', c.text, 'link', c.link)
                                          ORDER BY c.position, c.id)
                           FROM action_contents c WHERE c.action_id = a.id), '[]') AS contents,
               coalesce((SELECT jsonb_agg(jsonb_build_object('checkbox', g.checkbox,
                                                             'button', g.button)
                                          ORDER BY g.position, g.id)
                           FROM action_agreements g WHERE g.action_id = a.id), '[]')
                 AS agreements,
               coalesce((SELECT jsonb_agg(jsonb_build_object(
                                    'id', r.id, 'name', r.name,
                                    'question_count', (SELECT count(*) FROM research_questions q
                                                        WHERE q.research_id = r.id)))
                           FROM researches r WHERE r.action_id = a.id), '[]') AS researches,
               coalesce((SELECT jsonb_agg(jsonb_build_object(
                                    'video_id', v.id, 'name', v.name,
                                    'description', v.description, 'required', v.required,
                                    'duration_seconds', v.duration_seconds,
                                    'object_key', v.object_key,
                                    'external_url', v.external_url)
                                          ORDER BY v.position, v.id)
                           FROM action_videos v WHERE v.action_id = a.id), '[]') AS videos,
               coalesce((SELECT jsonb_agg(jsonb_build_object(
                                    'action_id', w.action_id, 'video_id', w.video_id,
                                    'viewed_once', w.viewed_once, 'has_viewed', w.has_viewed)
                                          ORDER BY v.position, v.id)
                           FROM video_views w JOIN action_videos v ON v.id = w.video_id
                          WHERE w.action_id = a.id AND w.user_id = ",
            $viewer,
            "), '[]') AS user_videos
               FROM actions a
               JOIN action_types t ON t.id = a.type_id
              WHERE a.id = $3 AND a.station_id = $1 AND a.active ",
            $visible
        )
    };
}

/// `[members, visitors]` statements of the detail (a visitor's has no `$2`).
const DETAIL: [&str; 2] = [
    detail_query!("$2", ""),
    detail_query!("NULL::bigint", "AND a.public"),
];

/// One published activity of `station_id` as `viewer` sees it (a visitor, `None`, sees
/// only public ones), or `None`: unknown, another station's, unpublished and (for
/// visitors) private alike.
pub async fn detail(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    viewer: Option<UserId>,
    id: ActivityId,
) -> sqlx::Result<Option<Activity>> {
    let row: Option<DetailRow> = sqlx::query_as(DETAIL[usize::from(viewer.is_none())])
        .bind(station_id)
        .bind(viewer)
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|row| Activity {
        card: row.card.into_card(Utc::now()),
        station_id: row.station_id,
        has_rules: has_visible_text(&row.rules),
        description: row.description,
        rules: row.rules,
        feedback_message: row.feedback_message,
        feedback_lottie_id: row.feedback_lottie_id,
        comments_and_likes_enabled: row.comments_and_likes_enabled,
        contents: row.contents,
        agreements: row.agreements,
        researches: row.researches,
        partner_id: row.partner_id,
        videos: row.videos.into_iter().map(VideoRow::into_video).collect(),
        views: row.user_videos,
    }))
}

/// True when the station exists (public calls answer 404 for an unknown one).
pub async fn station_exists(db: impl PgExecutor<'_>, station_id: StationId) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM stations WHERE id = $1)")
        .bind(station_id)
        .fetch_one(db)
        .await
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

/// Whether `html` shows any text: its tags dropped, entities read, blanks (the no-break
/// space included) ignored. `<p></p>` or `<p>&nbsp;</p>` is none.
pub fn has_visible_text(html: &str) -> bool {
    let text = ammonia::Builder::empty().clean(html).to_string();
    // The text comes back escaped; an escaped entity is visible, but for `&nbsp;`.
    text.replace("&nbsp;", " ")
        .chars()
        .any(|c| !c.is_whitespace())
}

/// A new activity, as the console (and the demo seed, and tests) write one.
#[derive(Debug, Clone, Default)]
pub struct NewActivity {
    pub station_id: i64,
    pub type_id: ActivityType,
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
    pub prerequisites: Vec<ActivityId>,
    pub contents: Vec<Content>,
    pub agreements: Vec<Agreement>,
    pub videos: Vec<NewVideo>,
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
    for (position, agreement) in activity.agreements.iter().enumerate() {
        sqlx::query(
            "INSERT INTO action_agreements (action_id, position, checkbox, button)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(position as i32)
        .bind(&agreement.checkbox)
        .bind(&agreement.button)
        .execute(&mut *tx)
        .await?;
    }
    add_videos(&mut tx, ActivityId(id), &activity.videos).await?;
    tx.commit().await?;
    Ok(id)
}

/// Appends `videos` to the activity `action_id`'s, in order.
pub async fn add_videos(
    conn: &mut PgConnection,
    action_id: ActivityId,
    videos: &[NewVideo],
) -> sqlx::Result<()> {
    for video in videos {
        let (object_key, external_url) = match &video.source {
            VideoSource::Custom { object_key } => (Some(object_key.clone()), None),
            VideoSource::External(external) => (None, Some(external.url())),
        };
        sqlx::query(
            "INSERT INTO action_videos (action_id, position, object_key, external_url, name,
                                        description, required, duration_seconds)
             SELECT $1, coalesce(max(position) + 1, 0), $2, $3, $4, $5, $6, $7
               FROM action_videos WHERE action_id = $1",
        )
        .bind(action_id)
        .bind(object_key)
        .bind(external_url)
        .bind(&video.name)
        .bind(&video.description)
        .bind(video.required)
        .bind(i32::try_from(video.duration_seconds).unwrap_or(i32::MAX))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
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
    fn rules_of_empty_markup_have_no_visible_text() {
        for empty in [
            "",
            "  ",
            "<p></p>",
            "<p> </p><br>",
            "<p>&nbsp;</p>",
            "<ul><li></li></ul>",
        ] {
            assert!(!has_visible_text(&sanitise_html(empty)), "{empty:?}");
        }
        for shown in ["<p>Regra</p>", "x", "<p>&amp;</p>", "<ul><li>1</li></ul>"] {
            assert!(has_visible_text(&sanitise_html(shown)), "{shown:?}");
        }
    }

    #[test]
    fn search_terms_match_percent_and_underscore_literally() {
        assert_eq!(like_escaped("50%_a\\"), "50\\%\\_a\\\\");
    }
}
