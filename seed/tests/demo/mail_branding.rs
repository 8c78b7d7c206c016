//! A stored station becomes the branding of its e-mails.

use domain::infra::mail::Branding;
use domain::stations::station;
use seed::demo;
use sqlx::PgPool;

#[testkit::db_test]
async fn the_demo_station_brands_its_mail(db: PgPool) {
    let seeded = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let station = station::find(&db, seeded.station_id)
        .await
        .expect("query")
        .expect("station");

    let branding = Branding::of(&station, "https://demo.filia.com.br");

    assert_eq!(branding.name, demo::DEMO_STATION_NAME);
    assert_eq!(branding.color, demo::DEMO_MAIN_BRAND_COLOR);
    assert_eq!(
        branding.logo_url.as_deref(),
        Some("https://demo.filia.com.br/brand/demo/logo.svg")
    );
    assert_eq!(
        branding.sender,
        "Clube Filia Demo <nao-responda@demo.filia.com.br>"
    );
}
