//! The virtual member card: its data on `GET /api/users/{id}`, its PDF at
//! `GET /api/users/{id}/member-card/pdf` (made by the `member_card.pdf` job), only the
//! caller's own and only where the station shows member cards.

use crate::common::{self, app, call};
use axum::http::StatusCode;
use chrono::{Datelike, NaiveDate};
use jobs::kinds::MemberCardPdf;
use serde_json::json;
use sqlx::PgPool;

const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";
const NOT_FOUND: &str = "Carteirinha não disponível.";

fn pdf_uri(user_id: i64) -> String {
    format!("/api/users/{user_id}/member-card/pdf")
}

async fn set_member_card(db: &PgPool, station_id: i64, on: bool) {
    sqlx::query("UPDATE stations SET member_card_access = $2 WHERE id = $1")
        .bind(station_id)
        .bind(on)
        .execute(db)
        .await
        .expect("flag");
}

async fn pending_pdf_jobs(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'member_card.pdf' AND status = 'Pending'",
    )
    .fetch_one(db)
    .await
    .expect("jobs")
}

#[testkit::db_test]
async fn the_card_shows_the_members_data_valid_to_the_end_of_the_month(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    sqlx::query("UPDATE users SET cpf = '52998224725', birthday = '1990-05-17' WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("member data");
    let app = app(db.clone());

    let answer = call(
        &app,
        "GET",
        &format!("/api/users/{}", demo.member_id),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let user = &answer.json()[0];
    assert_eq!(user["id"], demo.member_id);
    let card = &user["member_card"];
    assert_eq!(card["number"], format!("{:08}", demo.member_id));
    assert_eq!(card["name"], "Maria Demo");
    assert_eq!(card["cpf"], "529.982.247-25");
    assert_eq!(card["birthday"], "1990-05-17");
    assert_eq!(card["establishments"], json!(["Associação Filia Demo"]));
    assert_eq!(
        card["validator_link"],
        format!(
            "http://127.0.0.1:8080/qr-code-user-validator/{}",
            demo.member_id
        )
    );
    let valid_until: NaiveDate = card["valid_until"]
        .as_str()
        .expect("date")
        .parse()
        .expect("a date");
    let today =
        domain::shared::time::today_in(domain::shared::time::zone_named("America/Sao_Paulo"));
    assert_eq!(
        (valid_until.year(), valid_until.month()),
        (today.year(), today.month())
    );
    assert!(valid_until.succ_opt().expect("next day").day() == 1);

    set_member_card(&db, demo.station_id, false).await;
    let hidden = call(
        &app,
        "GET",
        &format!("/api/users/{}", demo.member_id),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(hidden.status, StatusCode::OK);
    assert_eq!(hidden.json()[0]["member_card"], json!(null));
}

#[testkit::db_test]
async fn the_pdf_follows_its_job_then_downloads_until_the_card_changes(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    let uri = pdf_uri(demo.member_id);
    let demo_name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(demo.member_id)
        .fetch_one(&db)
        .await
        .expect("name");

    let making = call(&app, "GET", &uri, Some(&token), &[]).await;
    assert_eq!(making.status, StatusCode::ACCEPTED, "{}", making.text);
    let job_id = making.json()["job_id"].as_str().expect("job").to_string();
    let followed = call(
        &app,
        "GET",
        &format!("/api/jobs/{job_id}"),
        Some(&token),
        &[],
    )
    .await;
    assert_eq!(followed.status, StatusCode::OK, "{}", followed.text);
    // Asked again before it ran: the same job, not a second one.
    let again = call(&app, "GET", &uri, Some(&token), &[]).await;
    assert_eq!(again.json()["job_id"], job_id.as_str());
    assert_eq!(pending_pdf_jobs(&db).await, 1);

    common::run_jobs::<MemberCardPdf>(&db, "member_card.pdf", true).await;
    let pdf = call(&app, "GET", &uri, Some(&token), &[]).await;
    assert_eq!(pdf.status, StatusCode::OK, "{}", pdf.text);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    assert_eq!(pdf.headers["cache-control"], "private, no-store");
    assert!(pdf.text.starts_with("%PDF"));
    assert_eq!(pending_pdf_jobs(&db).await, 0);

    // A new name is a new card: made again, and the stale file replaced.
    sqlx::query("UPDATE users SET name = 'Maria Nova' WHERE id = $1")
        .bind(demo.member_id)
        .execute(&db)
        .await
        .expect("rename");
    let remade = call(&app, "GET", &uri, Some(&token), &[]).await;
    assert_eq!(remade.status, StatusCode::ACCEPTED, "{}", remade.text);
    assert_ne!(remade.json()["job_id"], job_id.as_str());
    common::run_jobs::<MemberCardPdf>(&db, "member_card.pdf", true).await;
    assert_eq!(
        call(&app, "GET", &uri, Some(&token), &[]).await.status,
        StatusCode::OK
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM member_card_pdfs WHERE user_id = $1")
        .bind(demo.member_id)
        .fetch_one(&db)
        .await
        .expect("rows");
    assert_eq!(rows, 1);

    // The old name again: that version's first job is long done, yet it is made anew.
    sqlx::query("UPDATE users SET name = $2 WHERE id = $1")
        .bind(demo.member_id)
        .bind(&demo_name)
        .execute(&db)
        .await
        .expect("rename back");
    let back = call(&app, "GET", &uri, Some(&token), &[]).await;
    assert_eq!(back.status, StatusCode::ACCEPTED, "{}", back.text);
    assert_ne!(back.json()["job_id"], job_id.as_str());
    assert_eq!(pending_pdf_jobs(&db).await, 1);
    common::run_jobs::<MemberCardPdf>(&db, "member_card.pdf", true).await;
    assert_eq!(
        call(&app, "GET", &uri, Some(&token), &[]).await.status,
        StatusCode::OK
    );
}

#[testkit::db_test]
async fn only_ones_own_card_and_only_where_the_station_shows_it(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let other_station = common::insert_station(&db, "outro").await;
    let outsider = common::insert_member(&db, other_station, "fora@example.com").await;
    let app = app(db.clone());

    for other in [demo.staff_id, outsider, 999_999] {
        let answer = call(&app, "GET", &pdf_uri(other), Some(&token), &[]).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{other}");
        assert_eq!(answer.json(), json!({ "messages": [NOT_AUTHORIZED] }));
    }
    assert_eq!(pending_pdf_jobs(&db).await, 0);

    // The other station shows no member card: its own member gets 404.
    let outsider_token = common::session_of(&db, outsider).await;
    let answer = call(&app, "GET", &pdf_uri(outsider), Some(&outsider_token), &[]).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json(), json!({ "error": NOT_FOUND }));

    set_member_card(&db, demo.station_id, false).await;
    let off = call(&app, "GET", &pdf_uri(demo.member_id), Some(&token), &[]).await;
    assert_eq!(off.status, StatusCode::NOT_FOUND);
    assert_eq!(off.json(), json!({ "error": NOT_FOUND }));
    assert_eq!(pending_pdf_jobs(&db).await, 0);

    let anonymous = call(&app, "GET", &pdf_uri(demo.member_id), None, &[]).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn asking_for_pdfs_is_throttled(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = app(db.clone());
    for _ in 0..20 {
        let answer = call(&app, "GET", &pdf_uri(demo.member_id), Some(&token), &[]).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    }
    let refused = call(&app, "GET", &pdf_uri(demo.member_id), Some(&token), &[]).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers.contains_key("retry-after"));
}
