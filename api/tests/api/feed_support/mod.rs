//! What the feed's tests share: a station with members, calls as one of them, activities
//! open to comments, uploads in any state, and console staff.

#![allow(dead_code)]

use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::infra::objects::Objects;
use domain::staff::{Role, Scope};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

use crate::common::{self, Answer, insert_member, insert_station, session_of};

pub const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";
pub const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";
pub const TOO_MANY: &str = "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.";

/// A member of a station, signed in.
#[derive(Debug, Clone)]
pub struct Someone {
    pub id: i64,
    pub token: String,
}

pub struct Feed {
    pub app: Router,
    pub db: PgPool,
    pub station_id: i64,
    pub maria: Someone,
    pub joao: Someone,
    /// A member of another station, whose feed is open too.
    pub stranger: Someone,
    pub other_station_id: i64,
}

/// A member of `station_id` named `name`, signed in.
pub async fn member(db: &PgPool, station_id: i64, name: &str) -> Someone {
    let email = format!("{}.{}@example.com", slug(name), ulid::Ulid::generate());
    let id = insert_member(db, station_id, &email.to_lowercase()).await;
    sqlx::query("UPDATE users SET name = $2 WHERE id = $1")
        .bind(id)
        .bind(name)
        .execute(db)
        .await
        .expect("name");
    Someone {
        id,
        token: session_of(db, id).await,
    }
}

fn slug(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '.' })
        .collect()
}

/// Two stations; Maria and João in the first, a stranger in the second.
pub async fn feed(db: PgPool) -> Feed {
    feed_with_app(db.clone(), common::app(db)).await
}

pub async fn feed_with_app(db: PgPool, app: Router) -> Feed {
    let station_id = insert_station(&db, "clube").await;
    let other_station_id = insert_station(&db, "outro").await;
    let maria = member(&db, station_id, "Maria Souza").await;
    let joao = member(&db, station_id, "João Lima").await;
    let stranger = member(&db, other_station_id, "Pedro Alves").await;
    Feed {
        app,
        db,
        station_id,
        maria,
        joao,
        stranger,
        other_station_id,
    }
}

/// A pool of the test's database wide enough for a burst of requests at once
/// (the test's own has 5).
pub async fn wide_pool(db: &PgPool) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(20)
        .connect_with((*db.connect_options()).clone())
        .await
        .expect("pool")
}

impl Feed {
    pub async fn call(
        &self,
        who: &Someone,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> Answer {
        match body {
            Some(body) => {
                common::send_json(&self.app, method, uri, Some(&who.token), &[], &body).await
            }
            None => common::call(&self.app, method, uri, Some(&who.token), &[]).await,
        }
    }

    /// A text post by `who` in the first station; answers its id.
    pub async fn post(&self, who: &Someone, text: &str) -> i64 {
        let answer = self
            .call(
                who,
                "POST",
                "/api/posts",
                Some(json!({ "description": text, "station_id": self.station_id })),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["id"].as_i64().expect("post id")
    }

    /// A text post by the stranger in the other station; answers its id.
    pub async fn stranger_post(&self) -> i64 {
        let answer = self
            .call(
                &self.stranger,
                "POST",
                "/api/posts",
                Some(json!({ "description": "Lá longe", "station_id": self.other_station_id })),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json()["id"].as_i64().expect("post id")
    }

    /// The ids of the posts `who` sees on the first page (up to 30).
    pub async fn feed_ids(&self, who: &Someone) -> Vec<i64> {
        let answer = self
            .call(
                who,
                "GET",
                &format!("/api/posts/{}?limit=30", self.station_id),
                None,
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        ids(&answer.json()["posts"])
    }

    /// The post `id` as `who` sees it in the feed.
    pub async fn seen(&self, who: &Someone, id: i64) -> Option<Value> {
        let answer = self
            .call(
                who,
                "GET",
                &format!("/api/posts/{}?limit=30", self.station_id),
                None,
            )
            .await;
        answer.json()["posts"]
            .as_array()
            .expect("posts")
            .iter()
            .find(|post| post["id"] == id)
            .cloned()
    }

    pub async fn scalar(&self, sql: &str, id: i64) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
            .bind(id)
            .fetch_one(&self.db)
            .await
            .expect("scalar")
    }

    pub async fn execute(&self, sql: &str, id: i64) {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .bind(id)
            .execute(&self.db)
            .await
            .expect("execute");
    }

    /// A published activity of `station_id` with comments and likes as `enabled` says.
    pub async fn activity(&self, station_id: i64, enabled: bool, active: bool) -> i64 {
        catalogue::create(
            &self.db,
            &NewActivity {
                station_id,
                type_id: ActivityType::RawContent,
                name: "Conteúdo".into(),
                points: 1,
                participation_start: Some(Utc::now() - Duration::days(1)),
                participation_end: Some(Utc::now() + Duration::days(1)),
                comments_and_likes_enabled: enabled,
                active,
                ..NewActivity::default()
            },
        )
        .await
        .expect("activity")
    }

    /// An upload of `owner` in `status`, as the video engineer's calls leave it.
    pub async fn video(&self, owner: &Someone, station_id: i64, status: &str) -> i64 {
        let ready = status == "ready";
        sqlx::query_scalar(
            "INSERT INTO feed_videos (station_id, user_id, original_name, size, received, status,
                                      job_id, video_key, poster_key, duration_ms, failure)
             VALUES ($1, $2, 'praia.mp4', 1000, CASE WHEN $3 = 'uploading' THEN 0 ELSE 1000 END,
                     $3, CASE WHEN $3 = 'uploading' THEN NULL ELSE '01JOB' END,
                     CASE WHEN $4 THEN 'feed/videos/v.mp4' END,
                     CASE WHEN $4 THEN 'feed/videos/v.jpg' END,
                     CASE WHEN $4 THEN 6000 END,
                     CASE WHEN $3 = 'failed' THEN 'O arquivo não é um vídeo que possamos exibir.' END)
             RETURNING id",
        )
        .bind(station_id)
        .bind(owner.id)
        .bind(status)
        .bind(ready)
        .fetch_one(&self.db)
        .await
        .expect("video")
    }

    /// A ready upload of `owner` whose MP4 and poster are in the test app's store, with
    /// the URLs that serve them.
    pub async fn stored_video(&self, owner: &Someone) -> StoredVideo {
        let objects = Objects::from_config(&common::config_with(&[])).expect("objects");
        let video_key = Objects::new_key("feed/videos", "mp4");
        let poster_key = Objects::new_key("feed/videos", "jpg");
        for key in [&video_key, &poster_key] {
            objects
                .put(key, b"not really a video".to_vec())
                .await
                .expect("stored");
        }
        let id = sqlx::query_scalar(
            "INSERT INTO feed_videos (station_id, user_id, original_name, size, received, status,
                                      job_id, video_key, poster_key, duration_ms)
             VALUES ($1, $2, 'praia.mp4', 1000, 1000, 'ready', '01JOB', $3, $4, 6000)
             RETURNING id",
        )
        .bind(self.station_id)
        .bind(owner.id)
        .bind(&video_key)
        .bind(&poster_key)
        .fetch_one(&self.db)
        .await
        .expect("video");
        StoredVideo {
            id,
            url: Objects::url(&video_key),
            poster: Objects::url(&poster_key),
        }
    }

    /// A console account of `role` over `scope`, signed in.
    pub async fn staff(&self, email: &str, role: Role, scope: Scope) -> Someone {
        let id = build::member(self.station_id)
            .name("Equipe")
            .email(email)
            .staff()
            .insert(&self.db)
            .await;
        domain::staff::set_grant(&self.db, id, role, scope)
            .await
            .expect("grant");
        Someone {
            id,
            token: session_of(&self.db, id).await,
        }
    }
}

/// A ready upload with its files in the store.
#[derive(Debug, Clone)]
pub struct StoredVideo {
    pub id: i64,
    /// Where /api/media serves its MP4 and its poster.
    pub url: String,
    pub poster: String,
}

/// The `id`s of a JSON list.
pub fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|item| item["id"].as_i64().expect("id"))
        .collect()
}

/// Asserts a refusal's status and its one message (`messages`, or `error` for a 404).
pub fn refused(answer: &Answer, status: StatusCode, message: &str) {
    assert_eq!(answer.status, status, "{}", answer.text);
    let body = answer.json();
    if body.get("messages").is_some() {
        assert_eq!(body, json!({ "messages": [message] }));
    } else {
        assert_eq!(body, json!({ "error": message }));
    }
}
