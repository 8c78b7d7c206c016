//! The demo station's plans and subscriptions (issue 28): three plans ('Essencial' monthly,
//! 'Família' by the semester and highlighted 'Mais popular', 'Empresarial' sold by contact:
//! 'A negociar'), the demo member on 'Essencial' paying with a saved sandbox card, and the
//! book club (type 21, monthly 'Livro do mês') with the member subscribed. Each
//! subscription's first period is paid: its period row, its charge row and the sandbox's
//! own charge, as the billing engine would have left them. Runs after
//! [`super::shop::seed`]; every row is made once, so seeding again changes nothing.

use chrono::{DateTime, Months, Utc};
use sqlx::{PgConnection, PgPool};

use super::DemoStation;
use super::activities::BOOK_CLUB_ACTIVITY;
use super::art::{self, Palette};
use domain::infra::objects::Objects;

pub const ESSENTIAL_PLAN: &str = "Essencial";
pub const FAMILY_PLAN: &str = "Família";
pub const BUSINESS_PLAN: &str = "Empresarial";
pub const BOOK_PRODUCT: &str = "Livro do mês";

/// The demo member's saved sandbox card: a Visa ending 0010 (approved), valid to 12/2030.
pub const DEMO_CARD_ID: &str = "card_demo_membro_visa";
const DEMO_CARD_TOKEN: &str = "tok_demo_membro_visa";

struct DemoPlan {
    slug: &'static str,
    name: &'static str,
    description: &'static str,
    /// Centavos; `None` is 'A negociar'.
    amount: Option<i64>,
    discount: i64,
    /// 30 a month, 183 a semester, 365 a year.
    days: i32,
    highlighted: bool,
    purchase_text: &'static str,
    benefits: &'static [&'static str],
    palette: Palette,
}

const PLANS: [DemoPlan; 3] = [
    DemoPlan {
        slug: "essencial",
        name: ESSENTIAL_PLAN,
        description: "Os benefícios do clube no seu dia a dia, pagos mês a mês.",
        amount: Some(2990),
        discount: 0,
        days: 30,
        highlighted: false,
        purchase_text: "A assinatura é cobrada todo mês no cartão cadastrado. Você pode \
            cancelar quando quiser, sem multa.",
        benefits: &[
            "Descontos de até 20% na rede de farmácias parceiras",
            "Ingressos de cinema com 50% de desconto",
            "Carteirinha digital do associado",
            "Cashback em dobro nas compras da loja do clube",
            "Acesso às palestras mensais do clube",
            "Atendimento pelo WhatsApp em horário comercial",
        ],
        palette: Palette {
            from: [20, 110, 130],
            to: [130, 210, 200],
        },
    },
    DemoPlan {
        slug: "familia",
        name: FAMILY_PLAN,
        description: "Tudo do Essencial para você e sua família, com seis meses pelo \
            preço de cinco.",
        amount: Some(15990),
        discount: 1000,
        days: 183,
        highlighted: true,
        purchase_text: "A assinatura é cobrada a cada seis meses no cartão cadastrado. Você \
            pode cancelar quando quiser, sem multa.",
        benefits: &[
            "Tudo do plano Essencial para até 4 dependentes",
            "Descontos de até 30% na rede de farmácias parceiras",
            "Ingressos de cinema com 50% de desconto para toda a família",
            "Consultas com nutricionista e psicólogo a preço de associado",
            "Colônia de férias com preço especial para os filhos",
            "Cashback em dobro nas compras da loja do clube",
            "Sorteios mensais exclusivos",
            "Atendimento prioritário",
        ],
        palette: Palette {
            from: [220, 80, 70],
            to: [250, 180, 120],
        },
    },
    DemoPlan {
        slug: "empresarial",
        name: BUSINESS_PLAN,
        description: "O clube de benefícios para a equipe da sua empresa, com condições \
            sob medida.",
        amount: None,
        discount: 0,
        days: 365,
        highlighted: false,
        purchase_text: "Fale com a nossa equipe: preparamos uma proposta para o tamanho da \
            sua empresa.",
        benefits: &[
            "Benefícios do clube para toda a equipe da sua empresa",
            "Painel de gestão dos colaboradores",
            "Campanhas de engajamento com a marca da empresa",
            "Relatórios mensais de uso dos benefícios",
            "Gerente de conta dedicado",
            "Integração com o RH para incluir e remover colaboradores",
            "Condições negociadas conforme o número de colaboradores",
        ],
        palette: Palette {
            from: [60, 60, 150],
            to: [150, 140, 230],
        },
    },
];

/// Seeds the plans, the book club's recurrence, the demo member's card and its two
/// subscriptions, each with its first period paid.
pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    for (index, plan) in PLANS.iter().enumerate() {
        let exists: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM plans WHERE station_id = $1 AND name = $2)",
        )
        .bind(station_id)
        .bind(plan.name)
        .fetch_one(db)
        .await?;
        if exists {
            continue;
        }
        let image_key = format!("demo/plans/{}.png", plan.slug);
        objects
            .put(
                &image_key,
                art::banner(art::CARD_SIZE, plan.palette, index as u32 + 11)?,
            )
            .await?;
        let mut tx = db.begin().await?;
        let plan_id: i64 = sqlx::query_scalar(
            "INSERT INTO plans (station_id, external_id, name, description, amount, discount,
                                days, is_highlighted, image_key, purchase_text)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(station_id)
        .bind(format!("demo-{}", plan.slug))
        .bind(plan.name)
        .bind(plan.description)
        .bind(plan.amount)
        .bind(plan.discount)
        .bind(plan.days)
        .bind(plan.highlighted)
        .bind(&image_key)
        .bind(plan.purchase_text)
        .fetch_one(&mut *tx)
        .await?;
        for (position, benefit) in plan.benefits.iter().enumerate() {
            sqlx::query(
                "INSERT INTO plan_benefits (plan_id, position, benefit) VALUES ($1, $2, $3)",
            )
            .bind(plan_id)
            .bind(position as i32)
            .bind(benefit)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
    }

    let mut tx = db.begin().await?;
    let card_id = demo_card(&mut tx, demo).await?;
    let now = Utc::now();
    let essential: (i64, i64) = sqlx::query_as(
        "SELECT id, amount - discount FROM plans WHERE station_id = $1 AND name = $2",
    )
    .bind(station_id)
    .bind(ESSENTIAL_PLAN)
    .fetch_one(&mut *tx)
    .await?;
    let has_plan: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND plan_id IS NOT NULL)",
    )
    .bind(demo.member_id)
    .fetch_one(&mut *tx)
    .await?;
    if !has_plan {
        let (plan_id, amount) = essential;
        let subscription = Subscribed {
            plan_id: Some(plan_id),
            action: None,
            recurrence: "month",
            amount,
        };
        subscribe(&mut tx, demo, card_id, &subscription, now).await?;
    }

    // The book club: monthly, its product, and the member subscribed.
    let book: Option<(i64, i64, i64)> = sqlx::query_as(
        "SELECT a.id, p.id, p.value - p.discount_value
           FROM actions a JOIN products p ON p.action_id = a.id AND p.name = $3
          WHERE a.station_id = $1 AND a.name = $2",
    )
    .bind(station_id)
    .bind(BOOK_CLUB_ACTIVITY)
    .bind(BOOK_PRODUCT)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((action_id, product_id, price)) = book {
        let recurrence_id: i64 = sqlx::query_scalar(
            "INSERT INTO action_subscriptions (station_id, action_id, recurrence, description)
             VALUES ($1, $2, 'monthly', 'Um livro por mês, entregue na sua casa')
             ON CONFLICT (action_id, recurrence) DO UPDATE SET recurrence = EXCLUDED.recurrence
             RETURNING id",
        )
        .bind(station_id)
        .bind(action_id)
        .fetch_one(&mut *tx)
        .await?;
        let subscribed: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND action_id = $2)",
        )
        .bind(demo.member_id)
        .bind(action_id)
        .fetch_one(&mut *tx)
        .await?;
        if !subscribed {
            let subscription = Subscribed {
                plan_id: None,
                action: Some((action_id, recurrence_id, product_id)),
                recurrence: "monthly",
                amount: price,
            };
            subscribe(&mut tx, demo, card_id, &subscription, now).await?;
        }
    } else {
        tracing::warn!("demo book club or its product missing; its subscription skipped");
    }
    tx.commit().await?;
    Ok(())
}

/// The demo member's card: tokenised and saved at the sandbox (an approving Visa), and
/// among the member's saved cards. Answers the saved card's id.
async fn demo_card(tx: &mut PgConnection, demo: &DemoStation) -> anyhow::Result<i64> {
    sqlx::query(
        "INSERT INTO sandbox_cards (id, token, brand, last_digits, behaviour, saved, exp_month,
                                    exp_year, created_at)
         VALUES ($1, $2, 'visa', '0010', 'approve', true, 12, 2030, now())
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(DEMO_CARD_ID)
    .bind(DEMO_CARD_TOKEN)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO saved_cards (station_id, user_id, provider, gateway_card_id, brand,
                                  last_digits, exp_month, exp_year, is_default)
         SELECT $1, $2, 'sandbox', $3, 'visa', '0010', 12, 2030,
                NOT EXISTS (SELECT 1 FROM saved_cards
                             WHERE user_id = $2 AND provider = 'sandbox' AND is_default)
         ON CONFLICT (provider, gateway_card_id) DO NOTHING",
    )
    .bind(demo.station_id)
    .bind(demo.member_id)
    .bind(DEMO_CARD_ID)
    .execute(&mut *tx)
    .await?;
    Ok(sqlx::query_scalar(
        "SELECT id FROM saved_cards WHERE provider = 'sandbox' AND gateway_card_id = $1",
    )
    .bind(DEMO_CARD_ID)
    .fetch_one(&mut *tx)
    .await?)
}

/// What the demo member subscribes to: a plan, or a type 21 activity's product
/// (activity, its recurrence row, product).
struct Subscribed {
    plan_id: Option<i64>,
    action: Option<(i64, i64, i64)>,
    recurrence: &'static str,
    /// Each period's price, centavos.
    amount: i64,
}

/// A monthly card subscription anchored `now`, active, its period 0 paid: the period, the
/// try's charge row (key `subscription-charge-{id}`) and the sandbox's paid charge of that
/// key.
async fn subscribe(
    tx: &mut PgConnection,
    demo: &DemoStation,
    card_id: i64,
    subscribed: &Subscribed,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let end = now
        .checked_add_months(Months::new(1))
        .ok_or_else(|| anyhow::anyhow!("a month from now"))?;
    let (action_id, action_subscription_id, product_id) = match subscribed.action {
        Some((action, recurrence, product)) => (Some(action), Some(recurrence), Some(product)),
        None => (None, None, None),
    };
    let subscription_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscriptions (station_id, user_id, plan_id, action_id,
             action_subscription_id, product_id, recurrence, period_months, period_days, amount,
             method, saved_card_id, status, anchor_at, current_period, current_period_start,
             current_period_end, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, 0, $8, 'card', $9, 'active', $10, 0, $10, $11,
                 $10)
         RETURNING id",
    )
    .bind(demo.station_id)
    .bind(demo.member_id)
    .bind(subscribed.plan_id)
    .bind(action_id)
    .bind(action_subscription_id)
    .bind(product_id)
    .bind(subscribed.recurrence)
    .bind(subscribed.amount)
    .bind(card_id)
    .bind(now)
    .bind(end)
    .fetch_one(&mut *tx)
    .await?;
    let period_id: i64 = sqlx::query_scalar(
        "INSERT INTO subscription_periods (station_id, user_id, subscription_id, kind,
             period_index, starts_at, ends_at, amount, plan_id, status, attempts, paid_at,
             created_at)
         VALUES ($1, $2, $3, 'first', 0, $4, $5, $6, $7, 'paid', 1, $4, $4)
         RETURNING id",
    )
    .bind(demo.station_id)
    .bind(demo.member_id)
    .bind(subscription_id)
    .bind(now)
    .bind(end)
    .bind(subscribed.amount)
    .bind(subscribed.plan_id)
    .fetch_one(&mut *tx)
    .await?;
    // The sandbox's charge as its `create_card_charge` makes one for a saved card, under
    // the try's key.
    let gateway_charge_id = format!("ch_demo_assinatura_{subscription_id}");
    let key: String = sqlx::query_scalar(
        "INSERT INTO subscription_charges (id, station_id, period_id, attempt, method, amount,
             saved_card_id, provider, idempotency_key, gateway_charge_id, status, created_at,
             settled_at)
         OVERRIDING SYSTEM VALUE
         SELECT n, $1, $2, 1, 'card', $3, $4, 'sandbox', 'subscription-charge-' || n, $5,
                'paid', $6, $6
           FROM (SELECT nextval(pg_get_serial_sequence('subscription_charges', 'id')) AS n) s
         RETURNING idempotency_key",
    )
    .bind(demo.station_id)
    .bind(period_id)
    .bind(subscribed.amount)
    .bind(card_id)
    .bind(&gateway_charge_id)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let reference = format!("ASSINATURA-{subscription_id}-0");
    sqlx::query(
        "INSERT INTO sandbox_charges (id, idempotency_key, fingerprint, method, status,
             amount_cents, paid_amount_cents, reference, card_id, installments, paid_at,
             created_at)
         VALUES ($1, $2, $3, 'credit_card', 'paid', $4, $4, $5, $6, 1, $7, $7)",
    )
    .bind(&gateway_charge_id)
    .bind(&key)
    .bind(format!(
        "card:{}:1:{reference}:id:{DEMO_CARD_ID}",
        subscribed.amount
    ))
    .bind(subscribed.amount)
    .bind(&reference)
    .bind(DEMO_CARD_ID)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    // The book club's paid month is an order in 'Meus pedidos', as the engine makes one.
    if action_id.is_some() {
        domain::subscriptions::orders::make_for_period(tx, period_id, now).await?;
    }
    Ok(())
}
