//! The demo station's Mural: a second member with a login (to see another member's posts,
//! and that only authors delete), and a few posts of members and staff with a drawn picture,
//! a video drawn by ffmpeg, likes and comments. Seeded once: nothing is added when the
//! station already has posts.

use chrono::{Duration, Utc};
use sqlx::{PgConnection, PgPool};

use super::DemoStation;
use super::art::{self, Palette};
use domain::accounts::password;
use domain::infra::objects::Objects;

/// The second demo member, who wrote some of the Mural's posts.
pub const NEIGHBOUR_NAME: &str = "Ana Lima";
pub const NEIGHBOUR_EMAIL: &str = "ana@demo.filia.com.br";
pub const NEIGHBOUR_PASSWORD: &str = "Vizinha123";

const GREEN: Palette = Palette {
    from: [14, 124, 102],
    to: [120, 200, 160],
};
const AMBER: Palette = Palette {
    from: [242, 165, 65],
    to: [214, 90, 49],
};

pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    debug_assert!(password::meets_rule(NEIGHBOUR_PASSWORD));
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO users (station_id, name, email, password_hash, type_id, role, active,
                            briefing_done, state)
         VALUES ($1, $2, $3, $4, 2, 'member', true, true, 'SP')
         ON CONFLICT (station_id, email) WHERE email IS NOT NULL DO NOTHING",
    )
    .bind(demo.station_id)
    .bind(NEIGHBOUR_NAME)
    .bind(NEIGHBOUR_EMAIL)
    .bind(password::hash(NEIGHBOUR_PASSWORD)?)
    .execute(&mut *tx)
    .await?;
    let neighbour: i64 =
        sqlx::query_scalar("SELECT id FROM users WHERE station_id = $1 AND email = $2")
            .bind(demo.station_id)
            .bind(NEIGHBOUR_EMAIL)
            .fetch_one(&mut *tx)
            .await?;
    let seeded: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM feed_posts WHERE station_id = $1)")
            .bind(demo.station_id)
            .fetch_one(&mut *tx)
            .await?;
    if seeded {
        tx.commit().await?;
        return Ok(());
    }

    let picture_key = Objects::new_key(&format!("feed/{}", demo.station_id), "png");
    objects
        .put(&picture_key, art::banner(art::CARD_SIZE, GREEN, 11)?)
        .await?;
    let video = match art::clip(AMBER, 5).await? {
        Some(clip) => {
            let video_key = Objects::new_key("feed/videos", "mp4");
            let poster_key = Objects::new_key("feed/videos", "png");
            let size = i64::try_from(clip.len())?;
            objects.put(&video_key, clip).await?;
            objects
                .put(&poster_key, art::banner(art::CLIP_SIZE, AMBER, 5)?)
                .await?;
            Some(
                ready_video(
                    &mut tx,
                    demo.station_id,
                    neighbour,
                    size,
                    &video_key,
                    &poster_key,
                )
                .await?,
            )
        }
        None => {
            tracing::warn!("ffmpeg is not installed: the demo Mural has no video post");
            None
        }
    };

    let now = Utc::now();
    let welcome = post(
        &mut tx,
        demo.station_id,
        demo.staff_id,
        "Bem-vindos ao Mural do Clube Filia Demo! Aqui você compartilha fotos, vídeos e \
         novidades com os outros associados. Seja gentil e divirta-se.",
        None,
        None,
        now - Duration::days(3),
    )
    .await?;
    let planting = post(
        &mut tx,
        demo.station_id,
        neighbour,
        "Fotos do mutirão de plantio no parque do clube. Obrigada a todos que vieram!",
        Some(&picture_key),
        None,
        now - Duration::days(2),
    )
    .await?;
    let mut recent = vec![
        post(
            &mut tx,
            demo.station_id,
            demo.member_id,
            "Alguém vai ao torneio de futebol society no sábado? Estou montando um time.",
            None,
            None,
            now - Duration::hours(20),
        )
        .await?,
    ];
    if let Some(video_id) = video {
        recent.push(
            post(
                &mut tx,
                demo.station_id,
                neighbour,
                "Um pouquinho da festa junina do clube, para quem não pôde ir.",
                None,
                Some(video_id),
                now - Duration::hours(5),
            )
            .await?,
        );
    }

    for (post_id, user_id) in [
        (welcome, neighbour),
        (welcome, demo.member_id),
        (planting, demo.member_id),
        (planting, demo.staff_id),
        (recent[0], neighbour),
    ] {
        sqlx::query(
            "WITH liked AS (
                 INSERT INTO feed_likes (post_id, user_id) VALUES ($1, $2) RETURNING post_id)
             UPDATE feed_posts SET like_count = like_count + (SELECT count(*) FROM liked)
             WHERE id = $1",
        )
        .bind(post_id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    }
    for (post_id, user_id, text, hours_ago) in [
        (
            planting,
            demo.member_id,
            "Ficou lindo! Na próxima eu vou.",
            40,
        ),
        (planting, demo.staff_id, "Obrigado pela ajuda, Ana!", 30),
        (recent[0], neighbour, "Eu topo! Jogo no gol.", 18),
    ] {
        sqlx::query(
            "WITH added AS (
                 INSERT INTO comments (station_id, user_id, post_id, description, created_at)
                 VALUES ($1, $2, $3, $4, $5) RETURNING post_id)
             UPDATE feed_posts SET comment_count = comment_count + (SELECT count(*) FROM added)
             WHERE id = $3",
        )
        .bind(demo.station_id)
        .bind(user_id)
        .bind(post_id)
        .bind(text)
        .bind(now - Duration::hours(hours_ago))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn ready_video(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    size: i64,
    video_key: &str,
    poster_key: &str,
) -> sqlx::Result<i64> {
    let (width, height) = art::CLIP_SIZE;
    sqlx::query_scalar(
        "INSERT INTO feed_videos (station_id, user_id, original_name, size, received, status,
                                  video_key, poster_key, duration_ms, width, height)
         VALUES ($1, $2, 'festa-junina.mp4', $3, $3, 'ready', $4, $5, $6, $7, $8)
         RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(size)
    .bind(video_key)
    .bind(poster_key)
    .bind(i32::try_from(art::CLIP_SECONDS * 1000).unwrap_or(i32::MAX))
    .bind(i32::try_from(width).unwrap_or(i32::MAX))
    .bind(i32::try_from(height).unwrap_or(i32::MAX))
    .fetch_one(&mut *tx)
    .await
}

/// A published post written `at`.
async fn post(
    tx: &mut PgConnection,
    station_id: i64,
    user_id: i64,
    description: &str,
    image_key: Option<&str>,
    video_id: Option<i64>,
    at: chrono::DateTime<Utc>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO feed_posts (station_id, user_id, description, image_key, video_id,
                                 published_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(description)
    .bind(image_key)
    .bind(video_id)
    .bind(at)
    .fetch_one(&mut *tx)
    .await
}
