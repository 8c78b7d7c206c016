//! Comments on posts and activities over HTTP against the real database (docs/api-feed.md,
//! "Comments"): the text's rules, oldest first, one level of replies on activities, the
//! author-only delete, the post's count of visible comments, another station's items and
//! activities closed to comments, and the comments' rate limit.

use crate::common;
use crate::feed_support::*;
use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;

const EMPTY: &str = "O comentário não pode ficar vazio.";
const TOO_LONG: &str = "O comentário deve ter no máximo 200 caracteres.";
const COMMENT_NOT_FOUND: &str = "Comentário não encontrado.";
const POST_NOT_FOUND: &str = "Publicação não encontrada.";

impl Feed {
    async fn comment(&self, who: &Someone, post: i64, text: &str) -> common::Answer {
        self.call(
            who,
            "POST",
            "/api/comments",
            Some(json!({ "description": text, "post": post, "user": 1 })),
        )
        .await
    }

    async fn comment_id(&self, who: &Someone, post: i64, text: &str) -> i64 {
        let answer = self.comment(who, post, text).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["id"].as_i64().expect("id")
    }

    async fn on_action(
        &self,
        who: &Someone,
        action: i64,
        reply_to: Option<i64>,
        text: &str,
    ) -> common::Answer {
        match reply_to {
            None => {
                self.call(
                    who,
                    "POST",
                    "/api/comments-action",
                    Some(json!({ "description": text, "action": action })),
                )
                .await
            }
            Some(root) => {
                self.call(
                    who,
                    "POST",
                    "/api/sub-comments-action",
                    Some(json!({ "description": text, "action": action, "comment_id": root })),
                )
                .await
            }
        }
    }

    async fn on_action_id(
        &self,
        who: &Someone,
        action: i64,
        reply_to: Option<i64>,
        text: &str,
    ) -> i64 {
        let answer = self.on_action(who, action, reply_to, text).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["id"].as_i64().expect("id")
    }

    async fn list(&self, who: &Someone, uri: &str) -> Value {
        let answer = self.call(who, "GET", uri, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }

    async fn comment_count(&self, post: i64) -> i64 {
        self.scalar(
            "SELECT comment_count::bigint FROM feed_posts WHERE id = $1",
            post,
        )
        .await
    }
}

#[testkit::db_test]
async fn comments_on_a_post_are_listed_oldest_first_and_counted(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Comentem").await;
    let answer = f.comment(&f.joao, post, "  Que legal!  ").await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let first = answer.json();
    assert_eq!(first["description"], "Que legal!");
    assert_eq!(
        first["user"],
        json!({ "id": f.joao.id, "name": "João Lima", "image": null }),
        "the author is the caller, whatever `user` says"
    );
    assert_eq!(first["userAuthor"], true);
    assert_eq!(first["parentId"], json!(null));
    assert_eq!(first["replies"], json!([]));
    let second = f.comment_id(&f.maria, post, "Obrigada!").await;

    let listed = f
        .list(&f.maria, &format!("/api/comments/post/{post}"))
        .await;
    assert_eq!(
        ids(&listed),
        vec![first["id"].as_i64().expect("id"), second]
    );
    assert_eq!(listed[0]["userAuthor"], false);
    assert_eq!(listed[1]["userAuthor"], true);
    assert_eq!(f.comment_count(post).await, 2);
    assert_eq!(f.seen(&f.joao, post).await.expect("post")["comments"], 2);

    for (text, message) in [
        ("", EMPTY),
        ("   ", EMPTY),
        (&"a".repeat(201)[..], TOO_LONG),
    ] {
        refused(
            &f.comment(&f.joao, post, text).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            message,
        );
    }
    assert_eq!(
        f.comment(&f.joao, post, &"é".repeat(200)).await.status,
        StatusCode::CREATED
    );

    // Another station's post, and a hidden one, are not found.
    let far = f.stranger_post().await;
    refused(
        &f.comment(&f.joao, far, "Oi").await,
        StatusCode::NOT_FOUND,
        POST_NOT_FOUND,
    );
    let listed_far = f
        .call(&f.joao, "GET", &format!("/api/comments/post/{far}"), None)
        .await;
    refused(&listed_far, StatusCode::NOT_FOUND, POST_NOT_FOUND);
    f.execute(
        "UPDATE feed_posts SET hidden_at = now() WHERE id = $1",
        post,
    )
    .await;
    refused(
        &f.comment(&f.joao, post, "Oi").await,
        StatusCode::NOT_FOUND,
        POST_NOT_FOUND,
    );
    assert_eq!(f.comment_count(post).await, 3);
}

#[testkit::db_test]
async fn only_the_author_deletes_a_comment_and_the_count_follows(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Post").await;
    let joaos = f.comment_id(&f.joao, post, "Meu comentário").await;
    f.comment_id(&f.maria, post, "O meu").await;
    assert_eq!(f.comment_count(post).await, 2);

    refused(
        &f.call(&f.maria, "DELETE", &format!("/api/comments/{joaos}"), None)
            .await,
        StatusCode::FORBIDDEN,
        "Apenas o autor pode apagar.",
    );
    refused(
        &f.call(
            &f.stranger,
            "DELETE",
            &format!("/api/comments/{joaos}"),
            None,
        )
        .await,
        StatusCode::NOT_FOUND,
        COMMENT_NOT_FOUND,
    );
    let deleted = f
        .call(&f.joao, "DELETE", &format!("/api/comments/{joaos}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert_eq!(f.comment_count(post).await, 1);
    assert_eq!(
        f.list(&f.joao, &format!("/api/comments/post/{post}"))
            .await
            .as_array()
            .expect("list")
            .len(),
        1
    );
    refused(
        &f.call(&f.joao, "DELETE", &format!("/api/comments/{joaos}"), None)
            .await,
        StatusCode::NOT_FOUND,
        COMMENT_NOT_FOUND,
    );

    // A hidden comment is neither listed nor counted, nor deleted by its author.
    let hidden = f.comment_id(&f.joao, post, "Vai sumir").await;
    f.execute(
        "UPDATE comments SET hidden_at = now() WHERE id = $1",
        hidden,
    )
    .await;
    f.execute(
        "UPDATE feed_posts SET comment_count = comment_count - 1 WHERE id = $1",
        post,
    )
    .await;
    let listed = f.list(&f.joao, &format!("/api/comments/post/{post}")).await;
    assert!(!ids(&listed).contains(&hidden));
    refused(
        &f.call(&f.joao, "DELETE", &format!("/api/comments/{hidden}"), None)
            .await,
        StatusCode::NOT_FOUND,
        COMMENT_NOT_FOUND,
    );
    assert_eq!(f.comment_count(post).await, 1);
}

#[testkit::db_test]
async fn activity_comments_take_one_level_of_replies(db: PgPool) {
    let f = feed(db).await;
    let action = f.activity(f.station_id, true, true).await;
    let other = f.activity(f.station_id, true, true).await;
    let root = f
        .on_action_id(&f.maria, action, None, "Adorei a atividade")
        .await;
    let second_root = f.on_action_id(&f.joao, action, None, "Eu também").await;
    let reply = f.on_action(&f.joao, action, Some(root), "Concordo!").await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.json()["parentId"], root);
    let reply = reply.json()["id"].as_i64().expect("id");
    let later_reply = f.on_action_id(&f.maria, action, Some(root), "Valeu").await;

    let listed = f
        .list(&f.joao, &format!("/api/comments/action/{action}"))
        .await;
    assert_eq!(ids(&listed), vec![root, second_root]);
    assert_eq!(ids(&listed[0]["replies"]), vec![reply, later_reply]);
    assert_eq!(listed[0]["replies"][0]["userAuthor"], true);
    assert_eq!(listed[0]["replies"][0]["replies"], json!([]));
    assert_eq!(listed[1]["replies"], json!([]));

    // No reply to a reply, nor to another activity's comment, nor an unknown one.
    for parent in [reply, 999_999] {
        refused(
            &f.on_action(&f.joao, action, Some(parent), "Oi").await,
            StatusCode::NOT_FOUND,
            COMMENT_NOT_FOUND,
        );
    }
    refused(
        &f.on_action(&f.joao, other, Some(root), "Oi").await,
        StatusCode::NOT_FOUND,
        COMMENT_NOT_FOUND,
    );
    refused(
        &f.on_action(&f.joao, action, Some(root), &"a".repeat(201))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        TOO_LONG,
    );
    refused(
        &f.on_action(&f.joao, action, None, "").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        EMPTY,
    );

    // A root's delete takes its replies; only its author deletes it.
    refused(
        &f.call(&f.joao, "DELETE", &format!("/api/comments/{root}"), None)
            .await,
        StatusCode::FORBIDDEN,
        "Apenas o autor pode apagar.",
    );
    assert_eq!(
        f.call(&f.maria, "DELETE", &format!("/api/comments/{root}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    let listed = f
        .list(&f.joao, &format!("/api/comments/action/{action}"))
        .await;
    assert_eq!(ids(&listed), vec![second_root]);
    assert_eq!(
        f.scalar("SELECT count(*) FROM comments WHERE action_id = $1", action)
            .await,
        1
    );
}

#[testkit::db_test]
async fn activities_closed_to_comments_or_elsewhere_are_unavailable(db: PgPool) {
    let f = feed(db).await;
    let open = f.activity(f.station_id, true, true).await;
    let root = f.on_action_id(&f.maria, open, None, "Antes").await;
    let closed = f.activity(f.station_id, false, true).await;
    let unpublished = f.activity(f.station_id, true, false).await;
    let elsewhere = f.activity(f.other_station_id, true, true).await;
    for id in [closed, unpublished, elsewhere, 999_999] {
        let listed = f
            .call(&f.joao, "GET", &format!("/api/comments/action/{id}"), None)
            .await;
        refused(&listed, StatusCode::NOT_FOUND, UNAVAILABLE);
        refused(
            &f.on_action(&f.joao, id, None, "Oi").await,
            StatusCode::NOT_FOUND,
            UNAVAILABLE,
        );
        refused(
            &f.on_action(&f.joao, id, Some(root), "Oi").await,
            StatusCode::NOT_FOUND,
            UNAVAILABLE,
        );
    }
    // Comments switched off later: nothing of them is reachable.
    f.execute(
        "UPDATE actions SET comments_and_likes_enabled = false WHERE id = $1",
        open,
    )
    .await;
    refused(
        &f.call(&f.maria, "DELETE", &format!("/api/comments/{root}"), None)
            .await,
        StatusCode::NOT_FOUND,
        UNAVAILABLE,
    );
    // Another station's member never reaches the activity's comments.
    f.execute(
        "UPDATE actions SET comments_and_likes_enabled = true WHERE id = $1",
        open,
    )
    .await;
    let listed = f
        .call(
            &f.stranger,
            "GET",
            &format!("/api/comments/action/{open}"),
            None,
        )
        .await;
    refused(&listed, StatusCode::NOT_FOUND, UNAVAILABLE);
    refused(
        &f.call(
            &f.stranger,
            "DELETE",
            &format!("/api/comments/{root}"),
            None,
        )
        .await,
        StatusCode::NOT_FOUND,
        COMMENT_NOT_FOUND,
    );
    assert_eq!(
        f.scalar("SELECT count(*) FROM comments WHERE action_id = $1", open)
            .await,
        1
    );
}

#[testkit::db_test]
async fn commenting_is_limited_to_thirty_in_ten_minutes(db: PgPool) {
    let f = feed(db).await;
    let post = f.post(&f.maria, "Post").await;
    let action = f.activity(f.station_id, true, true).await;
    for n in 0..30 {
        if n % 2 == 0 {
            f.comment_id(&f.joao, post, &format!("Comentário {n}"))
                .await;
        } else {
            f.on_action_id(&f.joao, action, None, &format!("Comentário {n}"))
                .await;
        }
    }
    refused(
        &f.comment(&f.joao, post, "Mais um").await,
        StatusCode::TOO_MANY_REQUESTS,
        TOO_MANY,
    );
    refused(
        &f.on_action(&f.joao, action, None, "Mais um").await,
        StatusCode::TOO_MANY_REQUESTS,
        TOO_MANY,
    );
    assert_eq!(f.comment_count(post).await, 15);
    // Reading and others' comments go on.
    f.list(&f.joao, &format!("/api/comments/post/{post}")).await;
    f.comment_id(&f.maria, post, "Eu ainda posso").await;
}
