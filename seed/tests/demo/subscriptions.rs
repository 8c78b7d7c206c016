//! The demo's plans and subscriptions: three plans (one highlighted, one 'A negociar'),
//! the demo member on 'Essencial' with a saved sandbox card and the book club, each with
//! its first period paid once; a second seed changes nothing.

use domain::infra::objects::Objects;
use seed::demo::{self, activities as demo_activities, shop, subscriptions};
use serde_json::{Value, json};
use sqlx::PgPool;

/// A plan: name, amount, days, highlighted, how many benefits, its picture.
type PlanRow = (String, Option<i64>, i32, bool, i64, Option<String>);

async fn snapshot(db: &PgPool) -> Value {
    sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'plans', (SELECT jsonb_agg(p ORDER BY id) FROM plans p),
             'benefits', (SELECT jsonb_agg(b ORDER BY id) FROM plan_benefits b),
             'recurrences', (SELECT jsonb_agg(r ORDER BY id) FROM action_subscriptions r),
             'subscriptions', (SELECT jsonb_agg(s ORDER BY id) FROM subscriptions s),
             'periods', (SELECT jsonb_agg(p ORDER BY id) FROM subscription_periods p),
             'charges', (SELECT jsonb_agg(c ORDER BY id) FROM subscription_charges c),
             'cards', (SELECT jsonb_agg(c ORDER BY id) FROM saved_cards c),
             'sandbox_cards', (SELECT jsonb_agg(c ORDER BY id) FROM sandbox_cards c),
             'sandbox_charges', (SELECT jsonb_agg(c ORDER BY id) FROM sandbox_charges c))",
    )
    .fetch_one(db)
    .await
    .expect("snapshot")
}

#[testkit::db_test]
async fn the_demo_has_three_plans_and_the_member_subscribed_and_paid_once(db: PgPool) {
    let dir = std::env::temp_dir().join(format!("filia-demo-plans-{}", ulid::Ulid::generate()));
    let objects = Objects::local(&dir).expect("objects");
    let station = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    demo_activities::seed(&db, &objects, &station)
        .await
        .expect("catalogue");
    shop::seed(&db, &objects, &station).await.expect("shop");
    subscriptions::seed(&db, &objects, &station)
        .await
        .expect("subscriptions");
    let before = snapshot(&db).await;

    let plans: Vec<PlanRow> = sqlx::query_as(
        "SELECT p.name, p.amount, p.days, p.is_highlighted,
                (SELECT count(*) FROM plan_benefits b WHERE b.plan_id = p.id), p.image_key
           FROM plans p WHERE p.station_id = $1 ORDER BY p.id",
    )
    .bind(station.station_id)
    .fetch_all(&db)
    .await
    .expect("plans");
    let shape: Vec<(&str, Option<i64>, i32, bool)> = plans
        .iter()
        .map(|(name, amount, days, highlighted, _, _)| {
            (name.as_str(), *amount, *days, *highlighted)
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("Essencial", Some(2990), 30, false),
            ("Família", Some(15990), 183, true),
            ("Empresarial", None, 365, false),
        ]
    );
    for (name, _, _, _, benefits, image) in &plans {
        assert!(*benefits >= 6, "{name}: {benefits} benefits");
        let image = image.as_deref().expect("a picture");
        assert!(dir.join(image).exists(), "{image}");
    }
    // 'E muito mais!' shows for a plan with more than six.
    assert!(plans.iter().any(|plan| plan.4 > 6));

    // The member's card, with its expiry, at the sandbox and among the saved cards.
    let mut conn = db.acquire().await.expect("conn");
    let cards = domain::commerce::cards::of_member(&mut conn, station.member_id, "sandbox")
        .await
        .expect("cards");
    assert_eq!(cards.len(), 1);
    assert_eq!(
        (cards[0].brand.as_str(), cards[0].last_digits.as_str()),
        ("visa", "0010")
    );
    assert_eq!(
        cards[0].expiry().map(|expiry| expiry.short()).as_deref(),
        Some("12/30")
    );
    drop(conn);

    // Two active card subscriptions, each with its period 0 paid by one paid charge whose
    // key names the sandbox's paid charge.
    let rows: Vec<Value> = sqlx::query_scalar(
        "SELECT jsonb_build_object(
             'plan', pl.name, 'product', pr.name, 'recurrence', s.recurrence,
             'status', s.status, 'amount', s.amount, 'card', s.saved_card_id = c.id,
             'live', s.current_period_end > now(),
             'periods', (SELECT jsonb_agg(jsonb_build_object(
                 'index', p.period_index, 'kind', p.kind, 'status', p.status,
                 'amount', p.amount, 'charges', (
                     SELECT jsonb_agg(jsonb_build_object(
                         'status', ch.status, 'amount', ch.amount,
                         'key', ch.idempotency_key = 'subscription-charge-' || ch.id,
                         'sandbox', (SELECT jsonb_build_object('status', sc.status,
                                                               'paid', sc.paid_amount_cents)
                                       FROM sandbox_charges sc
                                      WHERE sc.id = ch.gateway_charge_id
                                        AND sc.idempotency_key = ch.idempotency_key
                                        AND sc.card_id = c.gateway_card_id)))
                       FROM subscription_charges ch WHERE ch.period_id = p.id)))
                 FROM subscription_periods p WHERE p.subscription_id = s.id))
           FROM subscriptions s
           JOIN saved_cards c ON c.user_id = s.user_id
           LEFT JOIN plans pl ON pl.id = s.plan_id
           LEFT JOIN products pr ON pr.id = s.product_id
          WHERE s.user_id = $1 ORDER BY s.id",
    )
    .bind(station.member_id)
    .fetch_all(&db)
    .await
    .expect("subscriptions");
    let paid = |amount: i64| {
        json!([{ "index": 0, "kind": "first", "status": "paid", "amount": amount,
                 "charges": [{ "status": "paid", "amount": amount, "key": true,
                               "sandbox": { "status": "paid", "paid": amount } }] }])
    };
    assert_eq!(
        rows,
        [
            json!({ "plan": "Essencial", "product": null, "recurrence": "month",
                    "status": "active", "amount": 2990, "card": true, "live": true,
                    "periods": paid(2990) }),
            json!({ "plan": null, "product": "Livro do mês", "recurrence": "monthly",
                    "status": "active", "amount": 3990, "card": true, "live": true,
                    "periods": paid(3990) }),
        ]
    );
    // The book club's paid month is its order, paid, of one 'Livro do mês'.
    let book_order: (String, i64, String) = sqlx::query_as(
        "SELECT o.status, o.total_final_value, pr.name
           FROM subscription_periods p
           JOIN orders o ON o.id = p.order_id AND o.subscription_period_id = p.id
           JOIN order_lines l ON l.order_id = o.id JOIN products pr ON pr.id = l.product_id
          WHERE p.user_id = $1",
    )
    .bind(station.member_id)
    .fetch_one(&db)
    .await
    .expect("the book club's order");
    assert_eq!(book_order, ("paid".into(), 3990, "Livro do mês".into()));
    let book_club: (String, String, bool) = sqlx::query_as(
        "SELECT a.name, r.recurrence, r.active FROM action_subscriptions r
           JOIN actions a ON a.id = r.action_id WHERE a.station_id = $1",
    )
    .bind(station.station_id)
    .fetch_one(&db)
    .await
    .expect("recurrence");
    assert_eq!(
        book_club,
        (
            demo_activities::BOOK_CLUB_ACTIVITY.into(),
            "monthly".into(),
            true
        )
    );

    // Seeding again changes nothing.
    let again = demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("again");
    demo_activities::seed(&db, &objects, &again)
        .await
        .expect("catalogue again");
    shop::seed(&db, &objects, &again).await.expect("shop again");
    subscriptions::seed(&db, &objects, &again)
        .await
        .expect("subscriptions again");
    assert_eq!(snapshot(&db).await, before);
    std::fs::remove_dir_all(&dir).ok();
}
