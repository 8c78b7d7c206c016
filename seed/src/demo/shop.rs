//! The demo station's shop: products (with pictures drawn by [`super::art`]) for the
//! catalogue's shop activities and the book club's 'Livro do mês', delivery and pickup places for the welcome kit, a coupon,
//! and a dependent of the demo member for family vouchers. Runs after
//! [`super::activities::seed`]; an activity that has products already is left as it is, so
//! seeding again changes nothing.

use sqlx::PgPool;

use super::DemoStation;
use super::art::{self, Palette};
use domain::infra::objects::Objects;

pub const KIT_ACTIVITY: &str = "Kit de boas-vindas: peça o seu";
pub const CINEMA_ACTIVITY: &str = "Ingresso com desconto no Cine Paulista";
pub const PHARMACY_ACTIVITY: &str = "Voucher de 20% na farmácia parceira";
pub const WORKSHOP_ACTIVITY: &str = "Oficina de educação financeira";
/// A coupon of R$ 10,00, 100 uses, once per member.
pub const DEMO_COUPON: &str = "BEMVINDO";

pub const PRODUCT_SIZE: (u32, u32) = (480, 480);

const TEAL: Palette = Palette {
    from: [20, 110, 130],
    to: [130, 210, 200],
};
const CORAL: Palette = Palette {
    from: [220, 80, 70],
    to: [250, 180, 120],
};
const INDIGO: Palette = Palette {
    from: [60, 60, 150],
    to: [150, 140, 230],
};

struct DemoProduct {
    slug: &'static str,
    name: &'static str,
    description: &'static str,
    /// Centavos.
    value: i64,
    discount_value: i64,
    stock: i32,
    palette: Palette,
}

/// The commerce settings of an activity and its products.
struct DemoShop {
    activity: &'static str,
    digital_product: bool,
    sell_vouchers: bool,
    familiar_voucher: bool,
    allow_installments: bool,
    discount_delivery: i64,
    products: &'static [DemoProduct],
}

const SHOPS: [DemoShop; 5] = [
    DemoShop {
        activity: KIT_ACTIVITY,
        digital_product: false,
        sell_vouchers: false,
        familiar_voucher: false,
        allow_installments: true,
        discount_delivery: 500,
        products: &[
            DemoProduct {
                slug: "camiseta",
                name: "Camiseta do clube",
                description: "Camiseta de algodão com o logotipo do clube.",
                value: 4990,
                discount_value: 1000,
                stock: 40,
                palette: TEAL,
            },
            DemoProduct {
                slug: "caneca",
                name: "Caneca de cerâmica",
                description: "Caneca de 300 ml, vai ao micro-ondas.",
                value: 2990,
                discount_value: 0,
                stock: 25,
                palette: CORAL,
            },
            DemoProduct {
                slug: "caderno",
                name: "Caderno de anotações",
                description: "Caderno A5 com 96 folhas pautadas.",
                value: 1990,
                discount_value: 0,
                stock: 3,
                palette: INDIGO,
            },
        ],
    },
    DemoShop {
        activity: CINEMA_ACTIVITY,
        digital_product: true,
        sell_vouchers: true,
        familiar_voucher: false,
        allow_installments: false,
        discount_delivery: 0,
        products: &[DemoProduct {
            slug: "ingresso-cinema",
            name: "Ingresso de cinema (2D)",
            description: "Válido de segunda a quinta, em qualquer sessão.",
            value: 3600,
            discount_value: 1800,
            stock: 100,
            palette: INDIGO,
        }],
    },
    DemoShop {
        activity: PHARMACY_ACTIVITY,
        digital_product: true,
        sell_vouchers: true,
        familiar_voucher: true,
        allow_installments: false,
        discount_delivery: 0,
        products: &[DemoProduct {
            slug: "voucher-farmacia",
            name: "Voucher família: 20% na farmácia",
            description: "Vale para o associado e os dependentes cadastrados.",
            value: 500,
            discount_value: 0,
            stock: 200,
            palette: TEAL,
        }],
    },
    DemoShop {
        activity: WORKSHOP_ACTIVITY,
        digital_product: true,
        sell_vouchers: true,
        familiar_voucher: false,
        allow_installments: true,
        discount_delivery: 0,
        products: &[DemoProduct {
            slug: "oficina-financas",
            name: "Vaga na oficina de educação financeira",
            description: "Duas horas de oficina presencial, material incluso.",
            value: 8000,
            discount_value: 2000,
            stock: 20,
            palette: CORAL,
        }],
    },
    DemoShop {
        activity: super::activities::BOOK_CLUB_ACTIVITY,
        digital_product: true,
        sell_vouchers: false,
        familiar_voucher: false,
        allow_installments: false,
        discount_delivery: 0,
        products: &[DemoProduct {
            slug: "livro-do-mes",
            name: super::subscriptions::BOOK_PRODUCT,
            description: "O livro escolhido pela curadoria de associados, entregue na sua \
                casa todo mês.",
            value: 3990,
            discount_value: 0,
            stock: 500,
            palette: TEAL,
        }],
    },
];

/// Seeds the shop of the demo station `demo`, storing the product pictures in `objects`.
pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    for (index, shop) in SHOPS.iter().enumerate() {
        let action: Option<(i64, bool)> = sqlx::query_as(
            "SELECT a.id, EXISTS (SELECT 1 FROM products p WHERE p.action_id = a.id)
               FROM actions a WHERE a.station_id = $1 AND a.name = $2",
        )
        .bind(station_id)
        .bind(shop.activity)
        .fetch_optional(db)
        .await?;
        let Some((action_id, stocked)) = action else {
            tracing::warn!(
                activity = shop.activity,
                "demo shop activity missing; skipped"
            );
            continue;
        };
        if stocked {
            continue;
        }
        let mut tx = db.begin().await?;
        sqlx::query(
            "UPDATE actions SET digital_product = $2, sell_vouchers = $3, familiar_voucher = $4,
                                allow_installments = $5, discount_delivery = $6
              WHERE id = $1",
        )
        .bind(action_id)
        .bind(shop.digital_product)
        .bind(shop.sell_vouchers)
        .bind(shop.familiar_voucher)
        .bind(shop.allow_installments)
        .bind(shop.discount_delivery)
        .execute(&mut *tx)
        .await?;
        for (number, product) in shop.products.iter().enumerate() {
            let image_key = format!("demo/products/{}.png", product.slug);
            let variant = (index * 5 + number) as u32;
            objects
                .put(
                    &image_key,
                    art::banner(PRODUCT_SIZE, product.palette, variant)?,
                )
                .await?;
            sqlx::query(
                "INSERT INTO products (station_id, action_id, name, description, image_key, value,
                                       discount_value, stock)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(station_id)
            .bind(action_id)
            .bind(product.name)
            .bind(product.description)
            .bind(&image_key)
            .bind(product.value)
            .bind(product.discount_value)
            .bind(product.stock)
            .execute(&mut *tx)
            .await?;
        }
        if !shop.digital_product {
            sqlx::query(
                "INSERT INTO delivery_locations
                     (station_id, action_id, name, price, delivery, helper_label_field_1,
                      helper_label_field_2, street, street_number, zipcode)
                 VALUES ($1, $2, 'Entrega no seu endereço', 1500, true, 'Endereço',
                         'Complemento', NULL, NULL, NULL),
                        ($1, $2, 'Retirada na sede do clube', 0, false, 'Sede',
                         'De segunda a sexta, das 9h às 18h', 'Av. Paulista', '1000',
                         '01310100')",
            )
            .bind(station_id)
            .bind(action_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
    }
    sqlx::query(
        "INSERT INTO coupons (station_id, code, discount_value, max_uses, per_member_limit)
         VALUES ($1, $2, 1000, 100, 1)
         ON CONFLICT (station_id, code) DO NOTHING",
    )
    .bind(station_id)
    .bind(DEMO_COUPON)
    .execute(db)
    .await?;
    sqlx::query(
        "INSERT INTO dependents (station_id, user_id, dependente, parentesco)
         SELECT $1, $2, 'Ana Demo', 'Filha'
          WHERE NOT EXISTS (SELECT 1 FROM dependents WHERE user_id = $2)",
    )
    .bind(station_id)
    .bind(demo.member_id)
    .execute(db)
    .await?;
    Ok(())
}
