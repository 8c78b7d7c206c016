//! Likes on posts and activities over HTTP against the real database (docs/api-feed.md,
//! "Likes"): the count always equals the like rows, under a hundred likes and unlikes at
//! once and a member toggling meanwhile; liking twice changes nothing; another station's
//! items and activities closed to likes are not found; the likes' rate limit.

use crate::common;
use crate::feed_support::*;
use axum::http::StatusCode;
use futures_util::future::join_all;
use serde_json::{Value, json};
use sqlx::PgPool;

impl Feed {
    async fn like(&self, who: &Someone, method: &str, uri: &str, body: Value) -> Value {
        let answer = self.call(who, method, uri, Some(body)).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{method} {uri}: {}",
            answer.text
        );
        answer.json()
    }

    /// The post's stored count and its like rows.
    async fn post_counts(&self, post_id: i64) -> (i64, i64) {
        (
            self.scalar(
                "SELECT like_count::bigint FROM feed_posts WHERE id = $1",
                post_id,
            )
            .await,
            self.scalar(
                "SELECT count(*) FROM feed_likes WHERE post_id = $1",
                post_id,
            )
            .await,
        )
    }

    async fn action_counts(&self, action_id: i64) -> (i64, i64) {
        (
            self.scalar(
                "SELECT like_count::bigint FROM actions WHERE id = $1",
                action_id,
            )
            .await,
            self.scalar(
                "SELECT count(*) FROM action_likes WHERE action_id = $1",
                action_id,
            )
            .await,
        )
    }

    async fn members(&self, count: usize) -> Vec<Someone> {
        let mut members = Vec::new();
        for n in 0..count {
            members.push(member(&self.db, self.station_id, &format!("Membro {n}")).await);
        }
        members
    }

    /// Sends every call at once, each in a task of its own; answers their statuses.
    async fn at_once(
        &self,
        calls: Vec<(Someone, &'static str, &'static str, Value)>,
    ) -> Vec<StatusCode> {
        let tasks = calls.into_iter().map(|(who, method, uri, body)| {
            let app = self.app.clone();
            tokio::spawn(async move {
                common::send_json(&app, method, uri, Some(&who.token), &[], &body)
                    .await
                    .status
            })
        });
        join_all(tasks)
            .await
            .into_iter()
            .map(|status| status.expect("task"))
            .collect()
    }
}

#[testkit::db_test]
async fn a_like_is_counted_once_and_taken_back_once(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Curtam").await;
    let body = json!({ "post": post, "user": f.maria.id });
    assert_eq!(
        f.like(&f.joao, "POST", "/api/likes-web", body.clone())
            .await,
        json!({ "likes": 1, "userLiked": true })
    );
    assert_eq!(
        f.like(&f.joao, "POST", "/api/likes-web", body.clone())
            .await,
        json!({ "likes": 1, "userLiked": true }),
        "liking twice changes nothing"
    );
    assert_eq!(
        f.like(&f.maria, "POST", "/api/likes-web", body.clone())
            .await,
        json!({ "likes": 2, "userLiked": true })
    );
    let seen = f.seen(&f.joao, post).await.expect("post");
    assert_eq!(
        (seen["likes"].clone(), seen["userLiked"].clone()),
        (json!(2), json!(true))
    );

    assert_eq!(
        f.like(&f.joao, "PUT", "/api/likes", body.clone()).await,
        json!({ "likes": 1, "userLiked": false })
    );
    assert_eq!(
        f.like(&f.joao, "PUT", "/api/likes", body.clone()).await,
        json!({ "likes": 1, "userLiked": false }),
        "unliking what is not liked changes nothing"
    );
    let seen = f.seen(&f.joao, post).await.expect("post");
    assert_eq!(
        (seen["likes"].clone(), seen["userLiked"].clone()),
        (json!(1), json!(false))
    );
    assert_eq!(f.post_counts(post).await, (1, 1));

    // Another station's post, and one that does not exist, are not found.
    let far = f.stranger_post().await;
    for id in [far, 999_999] {
        for (method, uri) in [("POST", "/api/likes-web"), ("PUT", "/api/likes")] {
            let answer = f
                .call(&f.joao, method, uri, Some(json!({ "post": id })))
                .await;
            refused(&answer, StatusCode::NOT_FOUND, "Publicação não encontrada.");
        }
    }
    assert_eq!(f.post_counts(far).await, (0, 0));
}

#[testkit::db_test]
async fn a_hundred_likes_and_unlikes_at_once_leave_the_count_equal_to_the_rows(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide)).await;
    let post = f.post(&f.maria, "Todo mundo curte").await;
    let members = f.members(100).await;
    let body = json!({ "post": post });

    let likes = members
        .iter()
        .map(|who| (who.clone(), "POST", "/api/likes-web", body.clone()))
        .collect();
    assert!(f.at_once(likes).await.iter().all(|s| *s == StatusCode::OK));
    assert_eq!(f.post_counts(post).await, (100, 100));

    let unlikes = members
        .iter()
        .map(|who| (who.clone(), "PUT", "/api/likes", body.clone()))
        .collect();
    assert!(
        f.at_once(unlikes)
            .await
            .iter()
            .all(|s| *s == StatusCode::OK)
    );
    assert_eq!(f.post_counts(post).await, (0, 0));

    // Half the members like, the other half like and unlike, and João toggles all along.
    let mut mixed: Vec<(Someone, &str, &str, Value)> = Vec::new();
    for (n, who) in members.iter().enumerate() {
        mixed.push((who.clone(), "POST", "/api/likes-web", body.clone()));
        if n % 2 == 1 {
            mixed.push((who.clone(), "PUT", "/api/likes", body.clone()));
        }
        let (method, uri) = if n % 2 == 0 {
            ("POST", "/api/likes-web")
        } else {
            ("PUT", "/api/likes")
        };
        if n < 40 {
            mixed.push((f.joao.clone(), method, uri, body.clone()));
        }
    }
    assert!(f.at_once(mixed).await.iter().all(|s| *s == StatusCode::OK));
    let (count, rows) = f.post_counts(post).await;
    assert_eq!(count, rows);
    assert!((50..=101).contains(&rows), "{rows}");
    let seen = f.seen(&f.joao, post).await.expect("post");
    assert_eq!(seen["likes"], json!(rows));
}

#[testkit::db_test]
async fn activity_likes_need_an_activity_open_to_them(db: PgPool) {
    let wide = wide_pool(&db).await;
    let f = feed_with_app(db, common::app(wide)).await;
    let open = f.activity(f.station_id, true, true).await;
    let uri = format!("/api/likes/action/{open}");
    assert_eq!(
        f.like_get(&f.joao, &uri).await,
        json!({ "likes": 0, "userLiked": false })
    );
    let body = json!({ "action": open, "user": f.maria.id });
    assert_eq!(
        f.like(&f.joao, "POST", "/api/likes-action", body.clone())
            .await,
        json!({ "likes": 1, "userLiked": true })
    );
    assert_eq!(
        f.like(&f.joao, "POST", "/api/likes-action", body.clone())
            .await,
        json!({ "likes": 1, "userLiked": true })
    );
    assert_eq!(
        f.like_get(&f.joao, &uri).await,
        json!({ "likes": 1, "userLiked": true })
    );
    assert_eq!(
        f.like_get(&f.maria, &uri).await,
        json!({ "likes": 1, "userLiked": false })
    );
    assert_eq!(
        f.like(&f.joao, "PUT", "/api/likes-action", body.clone())
            .await,
        json!({ "likes": 0, "userLiked": false })
    );
    assert_eq!(
        f.like(&f.joao, "PUT", "/api/likes-action", body).await,
        json!({ "likes": 0, "userLiked": false })
    );

    // Fifty members at once, then all of them taking it back at once.
    let members = f.members(50).await;
    let body = json!({ "action": open });
    let likes = members
        .iter()
        .map(|who| (who.clone(), "POST", "/api/likes-action", body.clone()))
        .collect();
    assert!(f.at_once(likes).await.iter().all(|s| *s == StatusCode::OK));
    assert_eq!(f.action_counts(open).await, (50, 50));
    let unlikes = members
        .iter()
        .map(|who| (who.clone(), "PUT", "/api/likes-action", body.clone()))
        .collect();
    assert!(
        f.at_once(unlikes)
            .await
            .iter()
            .all(|s| *s == StatusCode::OK)
    );
    assert_eq!(f.action_counts(open).await, (0, 0));

    let closed = f.activity(f.station_id, false, true).await;
    let unpublished = f.activity(f.station_id, true, false).await;
    let elsewhere = f.activity(f.other_station_id, true, true).await;
    for id in [closed, unpublished, elsewhere, 999_999] {
        let get = f
            .call(&f.joao, "GET", &format!("/api/likes/action/{id}"), None)
            .await;
        refused(&get, StatusCode::NOT_FOUND, UNAVAILABLE);
        for method in ["POST", "PUT"] {
            let answer = f
                .call(
                    &f.joao,
                    method,
                    "/api/likes-action",
                    Some(json!({ "action": id })),
                )
                .await;
            refused(&answer, StatusCode::NOT_FOUND, UNAVAILABLE);
        }
        assert_eq!(
            f.scalar("SELECT count(*) FROM action_likes WHERE action_id = $1", id)
                .await,
            0
        );
    }
}

impl Feed {
    async fn like_get(&self, who: &Someone, uri: &str) -> Value {
        let answer = self.call(who, "GET", uri, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }
}

#[testkit::db_test]
async fn likes_and_unlikes_are_limited_to_120_a_minute(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Clique").await;
    let action = f.activity(f.station_id, true, true).await;
    for n in 0..120 {
        let (method, uri, body) = match n % 3 {
            0 => ("POST", "/api/likes-web", json!({ "post": post })),
            1 => ("PUT", "/api/likes", json!({ "post": post })),
            _ => ("POST", "/api/likes-action", json!({ "action": action })),
        };
        f.like(&f.joao, method, uri, body).await;
    }
    for (method, uri, body) in [
        ("POST", "/api/likes-web", json!({ "post": post })),
        ("PUT", "/api/likes-action", json!({ "action": action })),
    ] {
        let answer = f.call(&f.joao, method, uri, Some(body)).await;
        refused(&answer, StatusCode::TOO_MANY_REQUESTS, TOO_MANY);
    }
    // Reading likes is not limited, and others like on.
    f.like_get(&f.joao, &format!("/api/likes/action/{action}"))
        .await;
    f.like(&f.maria, "POST", "/api/likes-web", json!({ "post": post }))
        .await;
}
