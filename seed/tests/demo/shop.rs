//! The demo shop: products with pictures on the catalogue's shop activities, the welcome
//! kit's delivery and pickup places, a coupon and a dependent; a second seed changes
//! nothing.

use domain::commerce::catalogue;
use domain::infra::objects::Objects;
use seed::demo::{self, activities as demo_activities, shop};
use sqlx::PgPool;

async fn snapshot(db: &PgPool) -> serde_json::Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'products', (SELECT jsonb_agg(p ORDER BY id) FROM products p),
             'locations', (SELECT jsonb_agg(l ORDER BY id) FROM delivery_locations l),
             'coupons', (SELECT jsonb_agg(c ORDER BY id) FROM coupons c),
             'dependents', (SELECT jsonb_agg(d ORDER BY id) FROM dependents d))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_shop_has_products_to_buy_and_seeds_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-shop-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let catalogue_ids = demo_activities::seed(&db, &objects, &station)
        .await
        .expect("catalogue");
    shop::seed(&db, &objects, &station).await.expect("shop");
    let before = snapshot(&db).await;

    let kit = catalogue_ids.id(shop::KIT_ACTIVITY).expect("kit");
    let mut conn = db.acquire().await.expect("conn");
    let products =
        catalogue::products_of_action(&mut conn, station.station_id, station.member_id, kit)
            .await
            .expect("products");
    assert_eq!(products.len(), 3);
    let shirt = &products[0];
    assert_eq!(
        (shirt.value.0, shirt.discount_value.0, shirt.stock),
        (4990, 1000, 40)
    );
    assert!(!shirt.action.digital_product);
    assert_eq!(shirt.action.delivery_locations.len(), 2);
    let image = shirt.image.as_deref().expect("image");
    let key = Objects::key_of_url(image).expect("a stored picture");
    let stored = objects.get(key).await.expect("read").expect("stored");
    assert_eq!(stored.content_type, "image/png");
    for name in [
        shop::CINEMA_ACTIVITY,
        shop::PHARMACY_ACTIVITY,
        shop::WORKSHOP_ACTIVITY,
    ] {
        let id = catalogue_ids.id(name).expect("activity");
        let products =
            catalogue::products_of_action(&mut conn, station.station_id, station.member_id, id)
                .await
                .expect("products");
        assert_eq!(products.len(), 1, "{name}");
        assert!(products[0].action.sell_vouchers && products[0].action.digital_product);
    }

    shop::seed(&db, &objects, &station).await.expect("again");
    assert_eq!(snapshot(&db).await, before);
    let _ = std::fs::remove_dir_all(dir);
}
