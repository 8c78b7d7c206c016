//! Watching videos and the playlist participation over HTTP against the real database: a
//! "viewed" claim faster than the video or short of 80% is refused; played ranges add up
//! once; required videos lock the next; the playlist pays once under concurrent calls; a
//! limited playlist needs the videos watched again; other stations' videos are unavailable.
//! Time passing is the watch's start moved back in the database, not a sleep.

use crate::common;
use crate::common::{
    credit_jobs, insert_member, insert_station, participations, send_json, session_of,
};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::video_views::{LOCKED, NOT_WATCHED, PLAYLIST_UNWATCHED, RANGES_INVALID};
use domain::activities::videos::{ExternalVideo, NewVideo, VideoSource};
use serde_json::{Value, json};
use sqlx::PgPool;

const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";
const LIMIT_REACHED: &str = "Olá, você já ultrapassou o limite de participações nessa atividade!";

fn custom(name: &str, seconds: u32, required: bool) -> NewVideo {
    NewVideo {
        source: VideoSource::Custom {
            object_key: format!("videos/{name}.mp4"),
        },
        name: name.into(),
        description: String::new(),
        required,
        duration_seconds: seconds,
    }
}

/// A published playlist of `station_id`, open now, with `videos`, changed by `edit`.
async fn playlist(
    db: &PgPool,
    station_id: i64,
    videos: Vec<NewVideo>,
    edit: impl FnOnce(&mut NewActivity),
) -> (i64, Vec<i64>) {
    let mut new = NewActivity {
        station_id,
        type_id: ActivityType::VideoPlaylist,
        name: "Primeiros passos".into(),
        points: 20,
        participation_start: Some(Utc::now() - Duration::days(1)),
        participation_end: Some(Utc::now() + Duration::days(1)),
        active: true,
        videos,
        ..NewActivity::default()
    };
    edit(&mut new);
    let id = catalogue::create(db, &new).await.expect("playlist");
    let videos =
        sqlx::query_scalar("SELECT id FROM action_videos WHERE action_id = $1 ORDER BY position")
            .bind(id)
            .fetch_all(db)
            .await
            .expect("videos");
    (id, videos)
}

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
}

async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    let token = session_of(&db, member_id).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
    }
}

impl World {
    async fn report(&self, method: &str, video: i64, body: Value) -> common::Answer {
        self.report_as(&self.token, method, video, body).await
    }

    async fn report_as(
        &self,
        token: &str,
        method: &str,
        video: i64,
        body: Value,
    ) -> common::Answer {
        send_json(
            &self.app,
            method,
            &format!("/api/videos/check-videos/{video}"),
            Some(token),
            &[],
            &body,
        )
        .await
    }

    /// Moves the member's watches `seconds` into the past: that long has elapsed.
    async fn elapse(&self, user_id: i64, seconds: i64) {
        sqlx::query(
            "UPDATE video_views
                SET started_at = started_at - make_interval(secs => $2),
                    viewed_at = viewed_at - make_interval(secs => $2)
              WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(seconds as f64)
        .execute(&self.db)
        .await
        .expect("elapse");
    }

    /// Watches `video` of `action` whole, as the player would: starts, lets the time pass,
    /// reports the ranges and "viewed".
    async fn watch(&self, action: i64, video: i64, seconds: i64) -> common::Answer {
        let start = self
            .report(
                "POST",
                video,
                json!({ "action_id": action, "has_viewed": false }),
            )
            .await;
        assert_eq!(start.status, StatusCode::OK, "{}", start.json());
        self.elapse(self.member_id, seconds).await;
        self.report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[0, seconds]] }),
        )
        .await
    }

    async fn take_playlist(&self, path: &str, action: i64) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            path,
            Some(&self.token),
            &[],
            &json!({ "action_id": action }),
        )
        .await
    }
}

fn messages(answer: &common::Answer) -> Value {
    answer.json()["messages"].clone()
}

#[testkit::db_test]
async fn a_viewed_claim_faster_than_the_video_or_short_of_80_percent_is_refused(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(
        &w.db,
        w.station_id,
        vec![custom("intro", 60, false)],
        |_| (),
    )
    .await;
    let video = videos[0];

    // The whole minute claimed played a moment after starting.
    let start = w
        .report(
            "POST",
            video,
            json!({ "action_id": action, "has_viewed": false }),
        )
        .await;
    assert_eq!(
        start.json(),
        json!({ "action_id": action, "video_id": video, "viewed_once": false, "has_viewed": false })
    );
    let early = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 60]] }),
        )
        .await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&early), json!([NOT_WATCHED]));

    // 50 s later: the same 20 s reported three times are 20 s, not 60.
    w.elapse(w.member_id, 50).await;
    for _ in 0..3 {
        let progress = w
            .report(
                "PUT",
                video,
                json!({ "action_id": action, "has_viewed": false, "played": [[0, 20]] }),
            )
            .await;
        assert_eq!(progress.status, StatusCode::OK);
    }
    let short = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[10, 20], [30, 45]] }),
        )
        .await;
    assert_eq!(messages(&short), json!([NOT_WATCHED]), "35 s of 60");
    let enough = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 20], [20, 48.5]] }),
        )
        .await;
    assert_eq!(enough.status, StatusCode::OK, "{}", enough.json());
    assert_eq!(enough.json()["viewed_once"], true);
    assert_eq!(enough.json()["has_viewed"], true);

    // The checkbox unticked and ticked again: has_viewed follows, the view stays.
    let untick = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": false }),
        )
        .await;
    assert_eq!(untick.json()["has_viewed"], false);
    assert_eq!(untick.json()["viewed_once"], true);
    let tick = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true }),
        )
        .await;
    assert_eq!(tick.json()["has_viewed"], true);

    // The detail carries the member's views.
    let detail = common::call(
        &w.app,
        "GET",
        &format!("/api/actions/{action}/"),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(
        detail["user_videos"],
        json!([{ "action_id": action, "video_id": video, "viewed_once": true, "has_viewed": true }])
    );
    assert_eq!(detail["action_videos"][0]["duration_seconds"], 60);
}

#[testkit::db_test]
async fn an_external_video_is_judged_by_the_clock_and_bad_ranges_are_refused(db: PgPool) {
    let w = world(db).await;
    let youtube = NewVideo {
        source: VideoSource::External(
            ExternalVideo::parse("https://youtu.be/dQw4w9WgXcQ").expect("url"),
        ),
        name: "No YouTube".into(),
        description: String::new(),
        required: false,
        duration_seconds: 100,
    };
    let (action, videos) = playlist(&w.db, w.station_id, vec![youtube], |_| ()).await;
    let video = videos[0];
    for bad in [
        json!([[5, 2]]),
        json!([[-1, 2]]),
        json!([[0, 1e9]]),
        json!(vec![[0, 1]; 101]),
    ] {
        let answer = w
            .report(
                "POST",
                video,
                json!({ "action_id": action, "has_viewed": false, "played": bad }),
            )
            .await;
        assert_eq!(messages(&answer), json!([RANGES_INVALID]), "{bad}");
    }
    w.report(
        "POST",
        video,
        json!({ "action_id": action, "has_viewed": false }),
    )
    .await;
    w.elapse(w.member_id, 70).await;
    let early = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true }),
        )
        .await;
    assert_eq!(
        messages(&early),
        json!([NOT_WATCHED]),
        "70 s of the 78 needed"
    );
    w.elapse(w.member_id, 10).await;
    let viewed = w
        .report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true }),
        )
        .await;
    assert_eq!(viewed.json()["viewed_once"], true, "{}", viewed.json());
}

#[testkit::db_test]
async fn a_required_video_locks_the_next_ones(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(
        &w.db,
        w.station_id,
        vec![
            custom("um", 10, true),
            custom("dois", 10, false),
            custom("tres", 10, false),
        ],
        |_| (),
    )
    .await;
    for later in &videos[1..] {
        let locked = w
            .report(
                "POST",
                *later,
                json!({ "action_id": action, "has_viewed": false }),
            )
            .await;
        assert_eq!(locked.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(messages(&locked), json!([LOCKED]));
    }
    assert_eq!(w.watch(action, videos[0], 10).await.status, StatusCode::OK);
    // The second is not required: the third opens with the first viewed.
    assert_eq!(w.watch(action, videos[2], 10).await.status, StatusCode::OK);
}

#[testkit::db_test]
async fn the_playlist_pays_once_however_many_calls_arrive_at_once(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(
        &w.db,
        w.station_id,
        vec![custom("um", 6, true), custom("dois", 6, false)],
        |_| (),
    )
    .await;
    let early = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(messages(&early), json!([PLAYLIST_UNWATCHED]));
    w.watch(action, videos[0], 6).await;
    let half = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(messages(&half), json!([PLAYLIST_UNWATCHED]));
    w.watch(action, videos[1], 6).await;

    let calls = (0..8).map(|n| {
        let path = if n % 2 == 0 {
            "/api/video-playlist-participation"
        } else {
            "/api/video-youtube-participation"
        };
        w.take_playlist(path, action)
    });
    let answers = futures_util::future::join_all(calls).await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    let again = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .count();
    assert_eq!((created, again), (1, 7));
    let ids: Vec<i64> = answers
        .iter()
        .map(|a| a.json()["participation_id"].as_i64().expect("id"))
        .collect();
    assert!(ids.iter().all(|id| *id == ids[0]));
    assert_eq!(answers[0].json()["points"], 20);
    assert_eq!(participations(&w.db, action).await, 1);
    assert_eq!(credit_jobs(&w.db, action).await, 1);
}

#[testkit::db_test]
async fn a_limited_playlist_needs_the_videos_watched_again(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(&w.db, w.station_id, vec![custom("um", 6, false)], |a| {
        a.limit_per_user = Some(2);
    })
    .await;
    w.watch(action, videos[0], 6).await;
    let first = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(first.status, StatusCode::CREATED);
    let replay = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(
        messages(&replay),
        json!([PLAYLIST_UNWATCHED]),
        "the views were spent"
    );
    // Seen once, not viewed now: the page asks for the videos again.
    let detail = common::call(
        &w.app,
        "GET",
        &format!("/api/actions/{action}/"),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(
        detail["user_videos"],
        json!([{ "action_id": action, "video_id": videos[0], "viewed_once": true,
                 "has_viewed": false }])
    );
    // A toggle of the spent view is judged again, against a new watch.
    let tick = w
        .report(
            "PUT",
            videos[0],
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 6]] }),
        )
        .await;
    assert_eq!(messages(&tick), json!([NOT_WATCHED]));
    assert_eq!(w.watch(action, videos[0], 6).await.status, StatusCode::OK);
    let second = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(second.status, StatusCode::CREATED);
    // The limit reached, watching is refused with the rest.
    let third = w
        .report(
            "POST",
            videos[0],
            json!({ "action_id": action, "has_viewed": false }),
        )
        .await;
    assert_eq!(messages(&third), json!([LIMIT_REACHED]));
    let again = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(messages(&again), json!([LIMIT_REACHED]));
    assert_eq!(participations(&w.db, action).await, 2);
    assert_eq!(credit_jobs(&w.db, action).await, 2);
}

#[testkit::db_test]
async fn other_stations_activities_and_members_views_stay_apart(db: PgPool) {
    let w = world(db).await;
    let (action, videos) =
        playlist(&w.db, w.station_id, vec![custom("um", 6, false)], |_| ()).await;
    let (other_action, other_videos) =
        playlist(&w.db, w.station_id, vec![custom("dois", 6, false)], |_| ()).await;
    let elsewhere = insert_station(&w.db, "longe").await;
    let (far_action, far_videos) =
        playlist(&w.db, elsewhere, vec![custom("tres", 6, false)], |_| ()).await;
    let (closed, closed_videos) =
        playlist(&w.db, w.station_id, vec![custom("quatro", 6, false)], |a| {
            a.participation_end = Some(Utc::now() - Duration::hours(1));
        })
        .await;
    let unavailable = json!({ "error": UNAVAILABLE });

    // Another station's video, a video under another activity's id, an unknown one.
    for (video, action_id) in [
        (far_videos[0], far_action),
        (other_videos[0], action),
        (videos[0], other_action),
        (999_999, action),
    ] {
        let answer = w
            .report(
                "POST",
                video,
                json!({ "action_id": action_id, "has_viewed": false }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{video} {action_id}");
        assert_eq!(answer.json(), unavailable);
    }
    let far = w
        .take_playlist("/api/video-playlist-participation", far_action)
        .await;
    assert_eq!(far.status, StatusCode::NOT_FOUND);
    let outside = w
        .report(
            "POST",
            closed_videos[0],
            json!({ "action_id": closed, "has_viewed": false }),
        )
        .await;
    assert_eq!(outside.status, StatusCode::UNPROCESSABLE_ENTITY);

    // A visitor, and bad input.
    let visitor = send_json(
        &w.app,
        "POST",
        &format!("/api/videos/check-videos/{}", videos[0]),
        None,
        &[],
        &json!({ "action_id": action, "has_viewed": false }),
    )
    .await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    let unreadable = w
        .report("POST", videos[0], json!({ "has_viewed": "sim" }))
        .await;
    assert_eq!(unreadable.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Another member's views are theirs: watching does not show in mine.
    let other = insert_member(&w.db, w.station_id, "joao@example.com").await;
    let other_token = session_of(&w.db, other).await;
    w.report_as(
        &other_token,
        "POST",
        videos[0],
        json!({ "action_id": action, "has_viewed": false }),
    )
    .await;
    w.elapse(other, 6).await;
    let theirs = w
        .report_as(
            &other_token,
            "PUT",
            videos[0],
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 6]] }),
        )
        .await;
    assert_eq!(theirs.json()["viewed_once"], true);
    let mine = common::call(
        &w.app,
        "GET",
        &format!("/api/actions/{action}/"),
        Some(&w.token),
        &[],
    )
    .await
    .json();
    assert_eq!(mine["user_videos"], json!([]));
    let still = w
        .take_playlist("/api/video-playlist-participation", action)
        .await;
    assert_eq!(messages(&still), json!([PLAYLIST_UNWATCHED]));
}

#[testkit::db_test]
async fn videos_started_side_by_side_are_not_viewed_in_the_time_of_one(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(
        &w.db,
        w.station_id,
        vec![custom("um", 10, false), custom("dois", 10, false)],
        |_| (),
    )
    .await;
    for video in &videos {
        w.report(
            "POST",
            *video,
            json!({ "action_id": action, "has_viewed": false }),
        )
        .await;
    }
    w.elapse(w.member_id, 10).await;
    let claim = |video: i64| {
        w.report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 10]] }),
        )
    };
    assert_eq!(claim(videos[0]).await.status, StatusCode::OK);
    // Both played "at once": the second needs its own 8 s after the first's.
    let second = claim(videos[1]).await;
    assert_eq!(messages(&second), json!([NOT_WATCHED]));
    // 5 of the 8 s: the rest of the margin is for the real time the calls take on a
    // loaded machine, which counts too.
    w.elapse(w.member_id, 5).await;
    assert_eq!(messages(&claim(videos[1]).await), json!([NOT_WATCHED]));
    w.elapse(w.member_id, 3).await;
    assert_eq!(claim(videos[1]).await.status, StatusCode::OK);
}

#[testkit::db_test]
async fn a_video_started_long_before_does_not_open_the_others_at_once(db: PgPool) {
    let w = world(db).await;
    let (action, videos) = playlist(
        &w.db,
        w.station_id,
        vec![
            custom("um", 10, false),
            custom("dois", 10, false),
            custom("tres", 10, false),
        ],
        |_| (),
    )
    .await;
    // The first started a day ago; the other two now, side by side.
    w.report(
        "POST",
        videos[0],
        json!({ "action_id": action, "has_viewed": false }),
    )
    .await;
    w.elapse(w.member_id, 86_400).await;
    for video in &videos[1..] {
        w.report(
            "POST",
            *video,
            json!({ "action_id": action, "has_viewed": false }),
        )
        .await;
    }
    w.elapse(w.member_id, 10).await;
    let claim = |video: i64| {
        w.report(
            "PUT",
            video,
            json!({ "action_id": action, "has_viewed": true, "played": [[0, 10]] }),
        )
    };
    assert_eq!(claim(videos[0]).await.status, StatusCode::OK);
    // Each of the others counts from the view before it, not from the day-old start.
    assert_eq!(messages(&claim(videos[1]).await), json!([NOT_WATCHED]));
    w.elapse(w.member_id, 8).await;
    assert_eq!(claim(videos[1]).await.status, StatusCode::OK);
    assert_eq!(messages(&claim(videos[2]).await), json!([NOT_WATCHED]));
}
