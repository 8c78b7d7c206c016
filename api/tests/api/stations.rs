use crate::common::{app, get};
use axum::http::StatusCode;
use seed::demo;
use sqlx::PgPool;
use testkit::build;

#[testkit::db_test]
async fn a_station_answers_its_public_data(db: PgPool) {
    let seeded = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = app(db);

    let answer = get(&app, &format!("/api/stations/{}", seeded.station_id)).await;

    assert_eq!(answer.status, StatusCode::OK);
    let station = answer.json();
    assert_eq!(station["id"], seeded.station_id);
    assert_eq!(station["name"], demo::DEMO_STATION_NAME);
    assert_eq!(station["main_brand_color"], demo::DEMO_MAIN_BRAND_COLOR);
    assert_eq!(station["font_family"], "Lato");
    assert_eq!(station["domain"], "filiademo");
    assert_eq!(station["has_majority_security"], true);
    assert_eq!(station["public"], true);
    assert_eq!(station["my_account_access"], true);
    assert_eq!(station["currency_multiplier"], 1.0);
    assert_eq!(station["currency_name_position"], "after");
    assert_eq!(station["time_zone"], "America/Sao_Paulo");
    assert!(
        station["createdAt"]
            .as_str()
            .is_some_and(|at| at.starts_with("20"))
    );
    let establishment = &station["establishment"];
    assert_eq!(establishment["id"], seeded.establishment_id);
    assert_eq!(establishment["cnpj"], demo::DEMO_CNPJ);
    assert_eq!(establishment["full_social_name"], "Associação Filia Demo");
    assert_eq!(establishment["address"]["city"], "São Paulo");
    assert_eq!(establishment["address"]["line_1"], "Av. Paulista, 1000");
}

#[testkit::db_test]
async fn a_station_without_establishment_answers_null(db: PgPool) {
    let id = build::station("sindx").insert(&db).await;

    let answer = get(&app(db), &format!("/api/stations/{id}")).await;

    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.json()["establishment"].is_null());
}

#[testkit::db_test]
async fn an_unknown_station_answers_404_in_the_envelope(db: PgPool) {
    let answer = get(&app(db), "/api/stations/999999").await;

    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(
        answer.json(),
        serde_json::json!({ "error": "Estação não encontrada" })
    );
}

#[testkit::db_test]
async fn a_malformed_station_id_answers_400_in_the_envelope(db: PgPool) {
    let answer = get(&app(db), "/api/stations/abc").await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["messages"][0], "Parâmetro inválido na URL");
}

/// A station's time zone is held only as the zone database spells it: what PostgreSQL
/// would also read (an abbreviation, a POSIX offset, another case) is refused, since the
/// rules (chrono-tz) and the browsers (Intl) could not read it.
#[testkit::db_test]
async fn a_station_holds_only_an_iana_time_zone(db: PgPool) {
    let id = build::station("manaus").insert(&db).await;
    let set = async |zone: &str| {
        sqlx::query("UPDATE stations SET time_zone = $2 WHERE id = $1")
            .bind(id)
            .bind(zone)
            .execute(&db)
            .await
    };
    for refused in [
        "BRT",
        "UTC-4",
        "-04",
        "america/manaus",
        "posix/America/Manaus",
        "Marte/Olympus",
    ] {
        assert!(set(refused).await.is_err(), "{refused} was held");
    }
    for held in [
        "America/Manaus",
        "America/Noronha",
        "America/Rio_Branco",
        "America/Cuiaba",
    ] {
        set(held).await.expect(held);
        let answer = get(&app(db.clone()), &format!("/api/stations/{id}")).await;
        assert_eq!(answer.json()["time_zone"], held);
        held.parse::<domain::shared::time::Tz>()
            .expect("chrono-tz reads it");
    }
}

/// The home's shortcut tiles and the enterprise plan card are station settings on the
/// station's answer: off unless the station turns them on.
#[testkit::db_test]
async fn the_home_shortcuts_and_enterprise_card_follow_the_station_settings(db: PgPool) {
    let id = build::station("atalhos").insert(&db).await;
    let app = app(db.clone());

    let off = get(&app, &format!("/api/stations/{id}")).await.json();
    assert_eq!(off["home_shortcuts_access"], false);
    assert_eq!(off["enterprise_plan_access"], false);

    sqlx::query(
        "UPDATE stations SET home_shortcuts_access = true, enterprise_plan_access = true
          WHERE id = $1",
    )
    .bind(id)
    .execute(&db)
    .await
    .expect("settings");
    let on = get(&app, &format!("/api/stations/{id}")).await.json();
    assert_eq!(on["home_shortcuts_access"], true);
    assert_eq!(on["enterprise_plan_access"], true);
}

/// The support chat is a station setting: null (the contact form) unless set, and only an
/// https address is ever stored.
#[testkit::db_test]
async fn the_support_chat_is_an_https_station_setting(db: PgPool) {
    let id = build::station("chat").insert(&db).await;
    let app = app(db.clone());
    assert_eq!(
        get(&app, &format!("/api/stations/{id}")).await.json()["support_chat_url"],
        serde_json::Value::Null
    );

    let set = |url: &'static str| {
        sqlx::query("UPDATE stations SET support_chat_url = $2 WHERE id = $1")
            .bind(id)
            .bind(url)
            .execute(&db)
    };
    for refused in [
        "http://chat.example.com",
        "javascript:alert(1)",
        "https://",
        "chat.example.com",
    ] {
        assert!(set(refused).await.is_err(), "{refused} stored");
    }
    set("https://chat.example.com/clube")
        .await
        .expect("an https chat");
    assert_eq!(
        get(&app, &format!("/api/stations/{id}")).await.json()["support_chat_url"],
        "https://chat.example.com/clube"
    );
}

/// The demo's second station, served at its own subdomain, shows every member-visible
/// setting, and the demo member signs in there with the demo's credentials (the browser's
/// menu walk of that station relies on both).
#[testkit::db_test]
async fn the_full_demo_station_is_served_at_its_host_with_every_setting_on(db: PgPool) {
    let demo_station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let full = demo::full_station::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("full station");
    assert_ne!(full.station_id, demo_station.station_id);
    let app = app(db);

    let host = format!("{}.localhost:8080", demo::full_station::FULL_SUBDOMAIN);
    let config = crate::common::call(&app, "GET", "/api/config", None, &[("host", &host)]).await;
    assert_eq!(config.status, StatusCode::OK, "{}", config.text);
    assert_eq!(config.json()["station_id"], full.station_id);

    let station = get(&app, &format!("/api/stations/{}", full.station_id))
        .await
        .json();
    for flag in [
        "feed_access",
        "events_access",
        "files_access",
        "checkout_access",
        "my_account_access",
        "lucky_numbers_access",
        "member_card_access",
        "pre_registration_access",
        "home_shortcuts_access",
        "enterprise_plan_access",
        "fuel_campaign_access",
        "legal_access",
        "accounting_access",
        "health_access",
        "political_access",
    ] {
        assert_eq!(station[flag], true, "{flag}");
    }
    assert_eq!(station["no_cpf"], false);

    let login = crate::common::post_json(
        &app,
        &format!("/api/auth/login/establishment/{}", full.station_id),
        &serde_json::json!({ "email": demo::MEMBER_EMAIL, "password": demo::MEMBER_PASSWORD })
            .to_string(),
    )
    .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    assert_eq!(login.json()["user"]["id"], full.member_id);
    // Another station's member: not the demo station's.
    assert_ne!(full.member_id, demo_station.member_id);
}
