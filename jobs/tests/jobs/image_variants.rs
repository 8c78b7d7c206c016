//! `image.variants` through the real fleet: an opaque picture gets JPEG copies at the
//! widths narrower than it and a transparent one PNG copies, each its aspect ratio kept,
//! stored under keys beside the source and recorded with the original as the widest row;
//! asked for twice it is one job, and a run after the copies exist adds nothing. A missing
//! source and one that is not an image fail for good on the first attempt, recording
//! nothing.

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use app::Outbox;
use domain::Config;
use domain::infra::objects::Objects;
use domain::infra::variants;
use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use jobs::{Job, kinds::ImageVariants};
use jobs::{JobContext, JobOutbox, JobState, Services, fleet};
use sqlx::PgPool;
use testkit::build;

use crate::common::wait_for_state;

/// A data directory of the test's own: its objects are the fleet's.
struct Area {
    data: PathBuf,
}

impl Area {
    fn new() -> Self {
        Self {
            data: std::env::temp_dir().join(format!(
                "filia-variant-jobs-{}",
                ulid::Ulid::generate().to_string().to_lowercase()
            )),
        }
    }

    fn services(&self, db: &PgPool) -> Arc<Services> {
        let data = self.data.display().to_string();
        let config = Config::from_lookup(|name| match name {
            "FILIA_DATA_DIR" => Some(data.clone()),
            _ => None,
        })
        .expect("configuration");
        Services::new(fleet::pool_beside(db), config).expect("services")
    }

    fn objects(&self) -> Objects {
        Objects::local(&self.data.join("objects")).expect("objects")
    }
}

impl Drop for Area {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

fn opaque_png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x % 256) as u8, (y % 256) as u8, 90])
    })
    .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
    .expect("png");
    bytes
}

fn transparent_png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    RgbaImage::from_pixel(width, height, Rgba([10, 20, 30, 128]))
        .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .expect("png");
    bytes
}

async fn enqueue(db: &PgPool, station_id: i64, key: &str) -> app::Queued {
    let mut tx = db.begin().await.expect("tx");
    let queued = JobOutbox
        .make_image_variants(&mut tx, station_id, key)
        .await
        .expect("enqueue");
    tx.commit().await.expect("commit");
    queued
}

/// Each row's stored copy: its bytes, its format, its size.
async fn check_stored(objects: &Objects, rows: &[variants::Variant], format: ImageFormat) {
    for row in rows {
        let stored = objects
            .get(&row.key)
            .await
            .expect("get")
            .unwrap_or_else(|| panic!("{} stored", row.key));
        assert_eq!(stored.bytes.len() as i64, row.bytes, "{}", row.key);
        let decoded = image::load_from_memory(&stored.bytes).expect("decodes");
        assert_eq!(
            (decoded.width() as i32, decoded.height() as i32),
            (row.width, row.height),
            "{}",
            row.key
        );
        assert_eq!(
            image::guess_format(&stored.bytes).ok(),
            Some(format),
            "{}",
            row.key
        );
    }
}

#[testkit::db_test]
async fn copies_are_made_at_the_narrower_widths_once(db: PgPool) {
    let area = Area::new();
    let objects = area.objects();
    let station_id = build::station("variantes").insert(&db).await;
    let banner = "landing/7/banner.png";
    let logo = "stations/7/logo.png";
    objects
        .put(banner, opaque_png(1200, 400))
        .await
        .expect("put");
    objects
        .put(logo, transparent_png(1000, 500))
        .await
        .expect("put");

    let first = enqueue(&db, station_id, banner).await;
    assert!(first.new);
    let again = enqueue(&db, station_id, banner).await;
    assert_eq!(
        (again.job_id.as_str(), again.new),
        (first.job_id.as_str(), false)
    );
    let of_logo = enqueue(&db, station_id, logo).await;

    let fleet = fleet::spawn(area.services(&db), Vec::new());
    for id in [&first.job_id, &of_logo.job_id] {
        wait_for_state(&db, id, JobState::Succeeded, Duration::from_secs(30)).await;
    }
    fleet.stop().await.expect("clean stop");

    let rows = variants::of(&db, banner).await.expect("rows");
    let shape: Vec<_> = rows
        .iter()
        .map(|row| (row.width, row.height, row.key.as_str()))
        .collect();
    assert_eq!(
        shape,
        [
            (480, 160, "landing/7/banner.480w.jpg"),
            (960, 320, "landing/7/banner.960w.jpg"),
            (1200, 400, banner),
        ]
    );
    check_stored(&objects, &rows[..2], ImageFormat::Jpeg).await;
    check_stored(&objects, &rows[2..], ImageFormat::Png).await;

    let logo_rows = variants::of(&db, logo).await.expect("rows");
    let shape: Vec<_> = logo_rows
        .iter()
        .map(|row| (row.width, row.height, row.key.as_str()))
        .collect();
    assert_eq!(
        shape,
        [
            (480, 240, "stations/7/logo.480w.png"),
            (960, 480, "stations/7/logo.960w.png"),
            (1000, 500, logo),
        ]
    );
    check_stored(&objects, &logo_rows, ImageFormat::Png).await;

    // Run again (the console's re-run, a retried attempt): answered, nothing added.
    let ctx = JobContext {
        id: first.job_id.clone(),
        attempt: 2,
        worker: "test".into(),
        taken_at: None,
        services: area.services(&db),
    };
    let result = ImageVariants {
        key: banner.to_owned(),
    }
    .run(ctx)
    .await
    .expect("re-run");
    assert_eq!(
        result,
        serde_json::json!({ "new": false, "widths": [480, 960, 1200] })
    );
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM image_variants")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count, 6);

    // A source deleted takes its copies along (the original stays its caller's).
    variants::forget(&db, &objects, banner)
        .await
        .expect("forget");
    assert!(variants::of(&db, banner).await.expect("rows").is_empty());
    assert!(
        objects
            .get("landing/7/banner.480w.jpg")
            .await
            .expect("get")
            .is_none()
    );
    assert!(objects.get(banner).await.expect("get").is_some());
}

#[testkit::db_test]
async fn a_small_image_is_recorded_with_no_copies(db: PgPool) {
    let area = Area::new();
    let objects = area.objects();
    objects
        .put("users/3/face.jpg", opaque_png(300, 300))
        .await
        .expect("put");
    let made = variants::make(
        &db,
        &objects,
        &media::images::ImageCrate,
        "users/3/face.jpg",
    )
    .await
    .expect("made");
    assert!(made.new);
    assert_eq!(
        made.variants
            .iter()
            .map(|v| (v.width, v.key.as_str()))
            .collect::<Vec<_>>(),
        [(300, "users/3/face.jpg")]
    );
}

#[testkit::db_test]
async fn a_missing_source_or_one_that_is_not_an_image_fails_for_good(db: PgPool) {
    let area = Area::new();
    let objects = area.objects();
    let station_id = build::station("variantes").insert(&db).await;
    objects
        .put(
            "feed/9/fake.png",
            b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
        )
        .await
        .expect("put");
    let not_an_image = enqueue(&db, station_id, "feed/9/fake.png").await;
    let missing = enqueue(&db, station_id, "feed/9/gone.png").await;
    let private = enqueue(&db, station_id, "private/receipts/9/a.png").await;

    let fleet = fleet::spawn(area.services(&db), Vec::new());
    let mut errors = Vec::new();
    for id in [&not_an_image.job_id, &missing.job_id, &private.job_id] {
        let view = wait_for_state(&db, id, JobState::Failed, Duration::from_secs(30)).await;
        assert_eq!(view.attempts, 1, "not retried: {view:?}");
        errors.push(view.error.expect("its reason"));
    }
    fleet.stop().await.expect("clean stop");
    assert_eq!(
        errors,
        [
            "O arquivo não é uma imagem que possamos reduzir.",
            "A imagem não foi encontrada.",
            "O arquivo não é uma imagem que possamos reduzir.",
        ]
    );
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM image_variants")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count, 0);
}
