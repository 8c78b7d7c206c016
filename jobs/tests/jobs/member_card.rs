//! `member_card.pdf`: the member's card rendered as a real PDF (read back with `pdftotext`),
//! stored once per version of the card, the stale file deleted when the card changes.

use std::path::PathBuf;
use std::time::Duration;

use app::accounts::member_card::{self, Pdf};
use domain::shared::ids::{StationId, UserId};
use jobs::{JobOutbox, JobState};
use sqlx::PgPool;

use crate::common::{start_fleet, wait_for_state};

fn stored(key: &str) -> PathBuf {
    std::env::temp_dir()
        .join("filia-jobs-tests")
        .join("objects")
        .join(key)
}

async fn make(db: &PgPool, station: StationId, user: UserId) -> String {
    match member_card::pdf(db, &JobOutbox, station, user)
        .await
        .expect("asked")
        .expect("the demo shows member cards")
    {
        Pdf::Making(job_id) => job_id,
        Pdf::Stored(key) => panic!("already stored at {key}"),
    }
}

async fn stored_key(db: &PgPool, user: UserId) -> String {
    sqlx::query_scalar("SELECT pdf_key FROM member_card_pdfs WHERE user_id = $1")
        .bind(user)
        .fetch_one(db)
        .await
        .expect("recorded")
}

#[testkit::db_test]
async fn the_member_card_pdf_prints_the_card_and_is_remade_when_it_changes(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let (station, user) = (StationId(demo.station_id), UserId(demo.member_id));
    sqlx::query("UPDATE users SET cpf = '52998224725', birthday = '1990-05-17' WHERE id = $1")
        .bind(user)
        .execute(&db)
        .await
        .expect("member data");
    let fleet = start_fleet(&db);

    let job = make(&db, station, user).await;
    wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(60)).await;
    let key = stored_key(&db, user).await;
    assert!(
        key.starts_with("private/member-cards/") && key.ends_with(".pdf"),
        "{key}"
    );
    let text = std::process::Command::new("pdftotext")
        .arg(stored(&key))
        .arg("-")
        .output()
        .expect("pdftotext");
    let text = String::from_utf8_lossy(&text.stdout);
    let card = member_card::card(&db, station, user)
        .await
        .expect("card")
        .expect("shown");
    assert!(text.contains("Carteirinha"), "{text}");
    assert!(text.contains("Maria Demo"), "{text}");
    assert!(
        text.contains(&format!("Matrícula: {:08}", demo.member_id)),
        "{text}"
    );
    assert!(text.contains("CPF: 529.982.247-25"), "{text}");
    assert!(text.contains("Data de nascimento: 17/05/1990"), "{text}");
    assert!(text.contains("Associação Filia Demo"), "{text}");
    assert!(
        text.contains(&format!(
            "Válida até: {}",
            card.data.valid_until.format("%d/%m/%Y")
        )),
        "{text}"
    );
    // Asked again while the card is the same: the stored file.
    assert_eq!(
        member_card::pdf(&db, &JobOutbox, station, user)
            .await
            .expect("asked"),
        Some(Pdf::Stored(key.clone()))
    );

    sqlx::query("UPDATE users SET name = 'Maria Nova' WHERE id = $1")
        .bind(user)
        .execute(&db)
        .await
        .expect("rename");
    let job = make(&db, station, user).await;
    wait_for_state(&db, &job, JobState::Succeeded, Duration::from_secs(60)).await;
    let new_key = stored_key(&db, user).await;
    assert_ne!(new_key, key);
    assert!(stored(&new_key).exists());
    assert!(!stored(&key).exists(), "the stale card is deleted");
    fleet.stop().await.expect("clean stop");
}
