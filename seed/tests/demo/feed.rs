//! The demo Mural: a second member who can sign in, posts with a stored picture and a
//! ready video, likes and comments whose counters match their rows; a second seed changes
//! nothing.

use domain::accounts::password;
use domain::infra::objects::Objects;
use seed::demo::{self, feed};
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'posts', (SELECT jsonb_agg(p ORDER BY id) FROM feed_posts p),
             'videos', (SELECT jsonb_agg(v ORDER BY id) FROM feed_videos v),
             'likes', (SELECT count(*) FROM feed_likes),
             'comments', (SELECT jsonb_agg(c ORDER BY id) FROM comments c))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_mural_has_posts_of_two_members_and_seeds_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-feed-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    feed::seed(&db, &objects, &station).await.expect("feed");
    let before = snapshot(&db).await;

    let hash: String = sqlx::query_scalar(
        "SELECT password_hash FROM users WHERE station_id = $1 AND email = $2 AND active",
    )
    .bind(station.station_id)
    .bind(feed::NEIGHBOUR_EMAIL)
    .fetch_one(&db)
    .await
    .expect("second member");
    assert!(password::verify(feed::NEIGHBOUR_PASSWORD, Some(&hash)));

    let authors: i64 = sqlx::query_scalar(
        "SELECT count(DISTINCT user_id) FROM feed_posts
          WHERE station_id = $1 AND published_at IS NOT NULL",
    )
    .bind(station.station_id)
    .fetch_one(&db)
    .await
    .expect("authors");
    assert_eq!(authors, 3, "staff, the demo member and the second member");

    let image: String =
        sqlx::query_scalar("SELECT image_key FROM feed_posts WHERE image_key IS NOT NULL")
            .fetch_one(&db)
            .await
            .expect("a picture post");
    let picture = objects.get(&image).await.expect("get").expect("stored");
    assert!(picture.bytes.starts_with(b"\x89PNG"));

    // ops/test installs ffmpeg, so the video post is there, its files stored.
    let (video_key, poster_key): (String, String) =
        sqlx::query_as("SELECT video_key, poster_key FROM feed_videos WHERE status = 'ready'")
            .fetch_one(&db)
            .await
            .expect("a ready video");
    assert!(objects.head(&video_key).await.expect("head").is_some());
    assert!(objects.head(&poster_key).await.expect("head").is_some());
    let carried: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM feed_posts p JOIN feed_videos v ON v.id = p.video_id
                         WHERE v.video_key = $1 AND p.published_at IS NOT NULL)",
    )
    .bind(&video_key)
    .fetch_one(&db)
    .await
    .expect("video post");
    assert!(carried);

    let drift: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM feed_posts p
          WHERE p.like_count <> (SELECT count(*) FROM feed_likes l WHERE l.post_id = p.id)
             OR p.comment_count <> (SELECT count(*) FROM comments c WHERE c.post_id = p.id)",
    )
    .fetch_one(&db)
    .await
    .expect("counters");
    assert_eq!(drift, 0, "counters match their rows");
    let (likes, comments): (i64, i64) =
        sqlx::query_as("SELECT (SELECT count(*) FROM feed_likes), (SELECT count(*) FROM comments)")
            .fetch_one(&db)
            .await
            .expect("counts");
    assert!(likes > 0 && comments > 0);

    feed::seed(&db, &objects, &station).await.expect("again");
    assert_eq!(snapshot(&db).await, before, "a second seed changes nothing");
    std::fs::remove_dir_all(dir).ok();
}
