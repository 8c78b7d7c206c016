//! The ledger against a real database: idempotent credits, FIFO spends, reversals,
//! expiry, concurrent spends, and the invariants after a long randomised run.

use std::collections::HashMap;

use chrono::{Duration, Utc};
use sqlx::PgPool;

use super::*;
use crate::wallet::release::release_batch;
use crate::wallet::rules;

async fn station(db: &PgPool, subdomain: &str) -> i64 {
    testkit::build::station(subdomain).insert(db).await
}

async fn member(db: &PgPool, station_id: i64) -> i64 {
    testkit::build::member(station_id).insert(db).await
}

async fn set_rule(
    db: &PgPool,
    station_id: i64,
    rule: &str,
    instant: bool,
    expires_days: Option<i32>,
) {
    sqlx::query(
        "INSERT INTO credit_rules (station_id, rule, instant, expires_after)
         VALUES ($1, $2, $3, make_interval(days => $4))",
    )
    .bind(station_id)
    .bind(rule)
    .bind(instant)
    .bind(expires_days)
    .execute(db)
    .await
    .expect("rule");
}

fn a_credit(user_id: i64, station_id: i64, rule: &str, source_id: &str, amount: i64) -> Credit {
    Credit {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        source_kind: SourceKind::Activity,
        source_id: source_id.into(),
        rule: rule.into(),
        amount,
        description: "Crédito de teste".into(),
        action_id: None,
    }
}

fn a_spend(user_id: i64, station_id: i64, source_id: &str, amount: i64) -> Spend {
    Spend {
        user_id: UserId(user_id),
        station_id: StationId(station_id),
        kind: SpendKind::Purchase,
        source_id: source_id.into(),
        amount,
        description: "Pedido de teste".into(),
        action_id: None,
    }
}

async fn credit_now(db: &PgPool, credit: &Credit) -> Credited {
    let mut tx = db.begin().await.expect("tx");
    let credited = super::credit(&mut tx, credit, Some("job-test"))
        .await
        .expect("credit");
    tx.commit().await.expect("commit");
    credited
}

async fn spend_now(db: &PgPool, spend: &Spend) -> Result<Spent, LedgerError> {
    let mut tx = db.begin().await.expect("tx");
    let spent = super::spend(&mut tx, spend).await?;
    tx.commit().await.expect("commit");
    Ok(spent)
}

async fn reverse_now(db: &PgPool, lot_id: i64) -> Reversal {
    let mut tx = db.begin().await.expect("tx");
    let reversal = super::reverse(&mut tx, lot_id).await.expect("reverse");
    tx.commit().await.expect("commit");
    reversal
}

async fn release_now(db: &PgPool, station_id: i64, cutoff: chrono::DateTime<Utc>, limit: i64) {
    let mut tx = db.begin().await.expect("tx");
    release_batch(&mut tx, station_id, cutoff, limit, "job-release")
        .await
        .expect("release");
    tx.commit().await.expect("commit");
}

async fn assert_consistent(db: &PgPool) {
    assert_eq!(check_all(db).await.expect("check"), Vec::<Mismatch>::new());
}

async fn spent_of(db: &PgPool, lot_id: i64) -> (i64, String) {
    sqlx::query_as("SELECT spent, state FROM credit_lots WHERE id = $1")
        .bind(lot_id)
        .fetch_one(db)
        .await
        .expect("lot")
}

#[testkit::db_test]
async fn a_credit_applied_twice_credits_once(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    let signup = a_credit(
        user_id,
        station_id,
        rules::SIGNUP,
        &user_id.to_string(),
        5000,
    );

    let first = credit_now(&db, &signup).await;
    assert!(first.created);
    assert_eq!(first.state, LotState::Pending);
    let again = credit_now(&db, &signup).await;
    assert_eq!(
        again,
        Credited {
            created: false,
            ..first
        }
    );
    // Two racing credits of one key: one lot.
    let racing = a_credit(user_id, station_id, rules::ACTIVITY, "p-9", 700);
    let (a, b) = tokio::join!(credit_now(&db, &racing), credit_now(&db, &racing));
    assert_eq!(a.lot_id, b.lot_id);
    assert!(a.created != b.created);

    assert_eq!(
        balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 0,
            pending: 5700
        }
    );
    let lots: i64 = sqlx::query_scalar("SELECT count(*) FROM credit_lots")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(lots, 2);
    assert_consistent(&db).await;
}

#[testkit::db_test]
async fn rules_decide_pending_or_available_and_the_times(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::SHARE, false, Some(30)).await;

    let cashback = credit_now(
        &db,
        &a_credit(
            user_id,
            station_id,
            rules::PURCHASE_CASHBACK,
            "order-1",
            1000,
        ),
    )
    .await;
    let topup = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "t-1", 300),
    )
    .await;
    let share = credit_now(&db, &a_credit(user_id, station_id, rules::SHARE, "s-1", 10)).await;
    assert_eq!(cashback.state, LotState::Pending);
    assert_eq!(topup.state, LotState::Available);
    assert_eq!(share.state, LotState::Pending);

    let times = |lot_id: i64| {
        sqlx::query_as::<_, (f64, Option<f64>, bool)>(
            "SELECT extract(epoch FROM available_at - created_at)::float8,
                    extract(epoch FROM expires_at - available_at)::float8,
                    released_at IS NOT NULL
               FROM credit_lots WHERE id = $1",
        )
        .bind(lot_id)
        .fetch_one(&db)
    };
    assert_eq!(
        times(cashback.lot_id).await.expect("lot"),
        (7.0 * 86400.0, None, false)
    );
    assert_eq!(times(topup.lot_id).await.expect("lot"), (0.0, None, true));
    assert_eq!(
        times(share.lot_id).await.expect("lot"),
        (0.0, Some(30.0 * 86400.0), false)
    );
    assert_eq!(
        balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 300,
            pending: 1010
        }
    );

    // A member of another station cannot be credited here.
    let elsewhere = member(&db, station(&db, "outro").await).await;
    let mut tx = db.begin().await.expect("tx");
    let refused = super::credit(
        &mut tx,
        &a_credit(elsewhere, station_id, rules::TOPUP, "t-2", 100),
        None,
    )
    .await;
    assert!(
        matches!(refused, Err(LedgerError::NotAMember { .. })),
        "{refused:?}"
    );
    let zero = super::credit(
        &mut tx,
        &a_credit(user_id, station_id, rules::TOPUP, "t-3", 0),
        None,
    )
    .await;
    assert!(matches!(zero, Err(LedgerError::NonPositiveAmount(0))));
    assert_consistent(&db).await;
}

#[testkit::db_test]
async fn spends_draw_first_to_expire_first_and_reversal_owes_what_was_spent(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::ADJUSTMENT, true, Some(10)).await;
    set_rule(&db, station_id, rules::REFUND, true, Some(5)).await;

    let never = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "a", 10000),
    )
    .await;
    let in_ten = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::ADJUSTMENT, "b", 10000),
    )
    .await;
    let in_five = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::REFUND, "c", 10000),
    )
    .await;
    let pending = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::SIGNUP, "d", 4000),
    )
    .await;

    let spent = spend_now(&db, &a_spend(user_id, station_id, "order-1", 15000))
        .await
        .expect("spend");
    assert!(spent.created);
    let allocations: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT lot_id, amount FROM spend_allocations WHERE spend_id = $1 ORDER BY amount DESC",
    )
    .bind(spent.spend_id)
    .fetch_all(&db)
    .await
    .expect("allocations");
    assert_eq!(
        allocations,
        vec![(in_five.lot_id, 10000), (in_ten.lot_id, 5000)]
    );
    assert_eq!(spent_of(&db, never.lot_id).await.0, 0);

    // Paying for the same order again is the same spend.
    let again = spend_now(&db, &a_spend(user_id, station_id, "order-1", 15000))
        .await
        .expect("again");
    assert_eq!(
        again,
        Spent {
            created: false,
            ..spent
        }
    );

    // Half of `in_ten` was spent: the other half leaves the balance, and the spent half is
    // owed (issue 26), paid at once from the balance left.
    let reversal = reverse_now(&db, in_ten.lot_id).await;
    assert_eq!(
        (reversal.was, reversal.taken, reversal.owed),
        (LotState::Available, 5000, 5000)
    );
    assert_eq!(
        spent_of(&db, in_ten.lot_id).await,
        (5000, "reversed".into())
    );
    let reversed_pending = reverse_now(&db, pending.lot_id).await;
    assert_eq!(
        (reversed_pending.was, reversed_pending.taken),
        (LotState::Pending, 4000)
    );
    let twice = reverse_now(&db, pending.lot_id).await;
    assert_eq!((twice.was, twice.taken), (LotState::Reversed, 0));
    assert_eq!(
        balance(&db, user_id).await.expect("balance"),
        Balance {
            balance: 5000,
            pending: 0
        }
    );
    assert_eq!(super::debt(&db, user_id).await.expect("debt"), 0);

    // The balance is 5000: 5001 is refused with the balance in the error.
    match spend_now(&db, &a_spend(user_id, station_id, "order-2", 5001)).await {
        Err(LedgerError::Insufficient { balance, requested }) => {
            assert_eq!((balance, requested), (5000, 5001));
        }
        other => panic!("expected insufficient, got {other:?}"),
    }
    assert_consistent(&db).await;

    let statement = credits(&db, user_id, 1).await.expect("credits");
    assert_eq!(
        statement.iter().map(|line| line.id).collect::<Vec<_>>(),
        vec![pending.lot_id, in_five.lot_id, in_ten.lot_id, never.lot_id]
    );
    assert_eq!(statement[2].state, LotState::Reversed);
    assert!(credits(&db, user_id, 2).await.expect("page 2").is_empty());
    let used = spends(&db, user_id, 1).await.expect("spends");
    assert_eq!(
        used.iter()
            .map(|line| (line.amount, line.kind))
            .collect::<Vec<_>>(),
        vec![(5000, SpendKind::Debt), (15000, SpendKind::Purchase)]
    );
    let owed = super::debts(&db, user_id, 1).await.expect("debts");
    assert_eq!(
        owed.iter()
            .map(|line| (line.amount, line.settled))
            .collect::<Vec<_>>(),
        vec![(5000, 5000)]
    );
}

/// Points past their expiry that no job has ended yet never pay a debt: the debt stays
/// owed and the stale lot ends, as before any spend.
#[testkit::db_test]
async fn a_debt_is_never_paid_with_points_past_their_expiry(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::REFUND, true, Some(5)).await;
    let cashback = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "t-1", 1000),
    )
    .await;
    spend_now(&db, &a_spend(user_id, station_id, "o-1", 1000))
        .await
        .expect("spend");
    let stale = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::REFUND, "r-1", 600),
    )
    .await;
    sqlx::query("UPDATE credit_lots SET expires_at = now() - interval '1 hour' WHERE id = $1")
        .bind(stale.lot_id)
        .execute(&db)
        .await
        .expect("past its expiry");

    let reversal = reverse_now(&db, cashback.lot_id).await;
    assert_eq!((reversal.taken, reversal.owed), (0, 1000));
    assert_eq!(spent_of(&db, stale.lot_id).await, (0, "expired".into()));
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 0);
    let owed = super::debts(&db, user_id, 1).await.expect("debts");
    assert_eq!(
        owed.iter()
            .map(|line| (line.amount, line.settled))
            .collect::<Vec<_>>(),
        vec![(1000, 0)]
    );
    assert_consistent(&db).await;
}

#[testkit::db_test]
async fn expiry_ends_the_unspent_remainder_of_due_lots_of_its_station(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::REFUND, true, Some(5)).await;
    let due = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::REFUND, "r-1", 1000),
    )
    .await;
    let kept = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "t-1", 500),
    )
    .await;
    spend_now(&db, &a_spend(user_id, station_id, "o-1", 400))
        .await
        .expect("spend");
    // Another station's lot, due at the same time.
    let elsewhere = station(&db, "outro").await;
    let neighbour = member(&db, elsewhere).await;
    set_rule(&db, elsewhere, rules::REFUND, true, Some(5)).await;
    let theirs = credit_now(
        &db,
        &a_credit(neighbour, elsewhere, rules::REFUND, "r-2", 700),
    )
    .await;

    let mut tx = db.begin().await.expect("tx");
    let early = expire_due(&mut tx, station_id, Utc::now() + Duration::days(4), 100)
        .await
        .expect("expire");
    assert_eq!(early, Expired::default());
    assert!(
        !has_expiring(&mut *tx, station_id, Utc::now() + Duration::days(4))
            .await
            .expect("probe")
    );
    let later = Utc::now() + Duration::days(6);
    assert!(
        has_expiring(&mut *tx, station_id, later)
            .await
            .expect("probe")
    );
    let expired = expire_due(&mut tx, station_id, later, 100)
        .await
        .expect("expire");
    tx.commit().await.expect("commit");

    assert_eq!(
        expired,
        Expired {
            lots: 1,
            amount: 600
        }
    );
    assert_eq!(spent_of(&db, due.lot_id).await, (400, "expired".into()));
    assert_eq!(spent_of(&db, kept.lot_id).await, (0, "available".into()));
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 500);
    assert_eq!(spent_of(&db, theirs.lot_id).await, (0, "available".into()));
    assert_eq!(balance(&db, neighbour).await.expect("balance").balance, 700);

    let mut tx = db.begin().await.expect("tx");
    let theirs_expired = expire_due(&mut tx, elsewhere, later, 100)
        .await
        .expect("expire");
    tx.commit().await.expect("commit");
    assert_eq!(
        theirs_expired,
        Expired {
            lots: 1,
            amount: 700
        }
    );
    assert_eq!(balance(&db, neighbour).await.expect("balance").balance, 0);

    // The expired lot is reversed (a chargeback months later): its remainder left with the
    // expiry, and the 400 spent of it are owed, paid at once from the 500 left.
    let reversal = reverse_now(&db, due.lot_id).await;
    assert_eq!(
        (reversal.was, reversal.taken, reversal.owed),
        (LotState::Expired, 0, 400)
    );
    assert_eq!(spent_of(&db, due.lot_id).await, (400, "reversed".into()));
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 100);
    let twice = reverse_now(&db, due.lot_id).await;
    assert_eq!((twice.was, twice.owed), (LotState::Reversed, 0));
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 100);
    assert_consistent(&db).await;
}

#[testkit::db_test]
async fn a_spend_ends_the_wallets_expired_lots_and_never_draws_on_them(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::REFUND, true, Some(5)).await;
    // The refund expires first, so a spend would draw on it first, were it not past due.
    let expiring = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::REFUND, "r-1", 1000),
    )
    .await;
    let kept = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "t-1", 500),
    )
    .await;
    sqlx::query("UPDATE credit_lots SET expires_at = now() - interval '1 minute' WHERE id = $1")
        .bind(expiring.lot_id)
        .execute(&db)
        .await
        .expect("past due");
    // The scheduled expiry has not run: the cached balance still counts the refund.
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 1500);

    let spent = spend_now(&db, &a_spend(user_id, station_id, "o-1", 400))
        .await
        .expect("spend");
    let allocations: Vec<(i64, i64)> =
        sqlx::query_as("SELECT lot_id, amount FROM spend_allocations WHERE spend_id = $1")
            .bind(spent.spend_id)
            .fetch_all(&db)
            .await
            .expect("allocations");
    assert_eq!(allocations, vec![(kept.lot_id, 400)]);
    assert_eq!(spent_of(&db, expiring.lot_id).await, (0, "expired".into()));
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 100);
    assert_consistent(&db).await;

    // Only what is left counts: the expired refund cannot pay for more.
    match spend_now(&db, &a_spend(user_id, station_id, "o-2", 200)).await {
        Err(LedgerError::Insufficient { balance, requested }) => {
            assert_eq!((balance, requested), (100, 200));
        }
        other => panic!("expected insufficient, got {other:?}"),
    }
    assert_consistent(&db).await;
}

#[testkit::db_test]
async fn concurrent_spends_never_overdraw(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    for (n, amount) in [2500, 2500, 5000].into_iter().enumerate() {
        credit_now(
            &db,
            &a_credit(user_id, station_id, rules::TOPUP, &format!("t-{n}"), amount),
        )
        .await;
    }

    let tasks: Vec<_> = (0..20)
        .map(|n| {
            let db = db.clone();
            tokio::spawn(async move {
                spend_now(
                    &db,
                    &a_spend(user_id, station_id, &format!("order-{n}"), 3000),
                )
                .await
            })
        })
        .collect();
    let mut succeeded = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(spent) => {
                assert!(spent.created);
                succeeded += 1;
            }
            Err(LedgerError::Insufficient { balance, requested }) => {
                assert!(balance < requested, "{balance} {requested}");
            }
            Err(other) => panic!("unexpected {other}"),
        }
    }
    assert_eq!(succeeded, 3);
    assert_eq!(balance(&db, user_id).await.expect("balance").balance, 1000);
    assert_eq!(check(&db, user_id).await.expect("check"), vec![]);
}

/// A small deterministic generator, so a failing sequence can be replayed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = u64::try_from(high - low + 1).expect("range");
        low + i64::try_from(self.next() % span).expect("fits")
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let index = usize::try_from(self.next() % items.len() as u64).expect("index");
        &items[index]
    }
}

#[testkit::db_test]
async fn cache_equals_ledger_after_a_randomised_sequence(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let mut members = Vec::new();
    for _ in 0..4 {
        members.push(member(&db, station_id).await);
    }
    set_rule(&db, station_id, rules::SHARE, false, Some(1)).await;
    set_rule(&db, station_id, rules::REFUND, true, Some(2)).await;
    let credit_rules = [
        rules::SIGNUP,
        rules::SHARE,
        rules::ACTIVITY,
        rules::PURCHASE_CASHBACK,
        rules::TOPUP,
        rules::REFUND,
    ];

    let mut rng = SplitMix(0x5EED_F111A);
    let mut credited: Vec<Credit> = Vec::new();
    let mut lots: Vec<i64> = Vec::new();
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for step in 0..400 {
        let user_id = *rng.pick(&members);
        let op = rng.between(0, 99);
        let name = match op {
            0..=34 => {
                let rule: &&str = rng.pick(&credit_rules);
                let credit = a_credit(
                    user_id,
                    station_id,
                    rule,
                    &format!("src-{step}"),
                    rng.between(1, 5000),
                );
                let done = credit_now(&db, &credit).await;
                assert!(done.created);
                lots.push(done.lot_id);
                credited.push(credit);
                "credit"
            }
            35..=39 if !credited.is_empty() => {
                let credit = rng.pick(&credited).clone();
                assert!(!credit_now(&db, &credit).await.created);
                "credit again"
            }
            40..=64 => {
                let before = balance(&db, user_id).await.expect("balance").balance;
                let amount = rng.between(1, 8000);
                match spend_now(
                    &db,
                    &a_spend(user_id, station_id, &format!("o-{step}"), amount),
                )
                .await
                {
                    Ok(spent) => {
                        assert!(spent.created && amount <= before);
                        "spend"
                    }
                    Err(LedgerError::Insufficient { balance, .. }) => {
                        assert!(balance == before && amount > before);
                        "spend refused"
                    }
                    Err(other) => panic!("step {step}: {other}"),
                }
            }
            65..=79 if !lots.is_empty() => {
                let lot_id = *rng.pick(&lots);
                match reverse_now(&db, lot_id).await.was {
                    LotState::Pending => "reverse pending",
                    LotState::Available => "reverse available",
                    _ => "reverse closed",
                }
            }
            80..=91 => {
                let cutoff = Utc::now() + Duration::days(rng.between(0, 10));
                release_now(&db, station_id, cutoff, rng.between(1, 8)).await;
                "release"
            }
            _ => {
                let mut tx = db.begin().await.expect("tx");
                expire_due(
                    &mut tx,
                    station_id,
                    Utc::now() + Duration::days(rng.between(0, 3)),
                    rng.between(1, 5),
                )
                .await
                .expect("expire");
                tx.commit().await.expect("commit");
                "expire"
            }
        };
        *counts.entry(name).or_default() += 1;
        let mismatches = check_all(&db).await.expect("check");
        assert!(
            mismatches.is_empty(),
            "after step {step} ({name}): {mismatches:?}"
        );
    }
    // The sequence exercised every kind of operation, not only the cheap ones.
    for name in [
        "credit",
        "credit again",
        "spend",
        "spend refused",
        "reverse pending",
        "reverse available",
        "release",
        "expire",
    ] {
        assert!(
            counts.get(name).copied().unwrap_or(0) > 0,
            "{name} never ran: {counts:?}"
        );
    }
    let expired: i64 =
        sqlx::query_scalar("SELECT count(*) FROM credit_lots WHERE state = 'expired'")
            .fetch_one(&db)
            .await
            .expect("count");
    assert!(expired > 0, "no lot expired: {counts:?}");
}

/// Spends, credits, releases, reversals and expiry from several connections at once: no
/// deadlock (Postgres would abort one with 40P01) and the invariants hold at the end.
#[testkit::db_test]
async fn concurrent_mixed_operations_keep_the_invariants(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let mut members = Vec::new();
    for _ in 0..3 {
        members.push(member(&db, station_id).await);
    }
    set_rule(&db, station_id, rules::REFUND, true, Some(1)).await;
    for (n, user_id) in members.iter().enumerate() {
        credit_now(
            &db,
            &a_credit(
                *user_id,
                station_id,
                rules::TOPUP,
                &format!("seed-{n}"),
                20000,
            ),
        )
        .await;
    }

    let tasks: Vec<_> = (0..4u64)
        .map(|worker| {
            let db = db.clone();
            let members = members.clone();
            tokio::spawn(async move {
                let mut rng = SplitMix(worker + 1);
                for step in 0..40 {
                    let user_id = *rng.pick(&members);
                    let source = format!("w{worker}-{step}");
                    match rng.between(0, 5) {
                        0 | 1 => {
                            let rules: [&str; 3] = [rules::SIGNUP, rules::REFUND, rules::TOPUP];
                            let rule = *rng.pick(&rules);
                            credit_now(&db, &a_credit(user_id, station_id, rule, &source, rng.between(1, 3000))).await;
                        }
                        2 | 3 => match spend_now(&db, &a_spend(user_id, station_id, &source, rng.between(1, 4000))).await {
                            Ok(_) | Err(LedgerError::Insufficient { .. }) => {}
                            Err(other) => panic!("spend: {other}"),
                        },
                        4 => {
                            let lot: Option<i64> = sqlx::query_scalar(
                                "SELECT id FROM credit_lots WHERE user_id = $1 ORDER BY random() LIMIT 1",
                            )
                            .bind(user_id)
                            .fetch_optional(&db)
                            .await
                            .expect("lot");
                            if let Some(lot_id) = lot {
                                reverse_now(&db, lot_id).await;
                            }
                        }
                        _ => {
                            release_now(&db, station_id, Utc::now(), 5).await;
                            let mut tx = db.begin().await.expect("tx");
                            expire_due(&mut tx, station_id, Utc::now() + Duration::days(2), 5)
                                .await
                                .expect("expire");
                            tx.commit().await.expect("commit");
                        }
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("worker finished without error");
    }
    assert_consistent(&db).await;
}

/// The interleaving `concurrent_mixed_operations_keep_the_invariants` once met by chance,
/// made on purpose: a reversal reads a lot as pending while a release turns it available,
/// and a spend of the same member waits for the wallet the release holds. When the release
/// commits, the spend takes the wallet and draws on that lot first (it expires first). The
/// reversal's lock on the lot must not outlive its finding that the lot is no longer pending,
/// or each waits for the other and PostgreSQL aborts one (40P01).
#[testkit::db_test]
async fn a_reversal_meeting_a_release_never_deadlocks_with_a_spend(db: PgPool) {
    let station_id = station(&db, "clube").await;
    let user_id = member(&db, station_id).await;
    set_rule(&db, station_id, rules::SHARE, false, Some(30)).await;
    credit_now(
        &db,
        &a_credit(user_id, station_id, rules::TOPUP, "t-1", 1000),
    )
    .await;
    let shared = credit_now(
        &db,
        &a_credit(user_id, station_id, rules::SHARE, "s-1", 100),
    )
    .await;
    assert_eq!(shared.state, LotState::Pending);

    let mut release = db.begin().await.expect("tx");
    release_batch(&mut release, station_id, Utc::now(), 10, "job-release")
        .await
        .expect("release");
    let reversal = tokio::spawn({
        let db = db.clone();
        async move {
            let mut tx = db.begin().await.expect("tx");
            let reversal = super::reverse(&mut tx, shared.lot_id).await?;
            tx.commit().await?;
            Ok::<_, LedgerError>(reversal)
        }
    });
    testkit::until_waiting_for_locks(&db, 1).await;
    let spend = tokio::spawn({
        let db = db.clone();
        async move { spend_now(&db, &a_spend(user_id, station_id, "o-1", 50)).await }
    });
    testkit::until_waiting_for_locks(&db, 2).await;
    release.commit().await.expect("release committed");

    let spent = spend.await.expect("spend task");
    let reversed = reversal.await.expect("reversal task");
    assert!(spent.is_ok(), "spend: {spent:?}");
    let reversed = reversed.expect("reversal");
    assert_eq!(reversed.was, LotState::Available);
    assert_consistent(&db).await;
}
