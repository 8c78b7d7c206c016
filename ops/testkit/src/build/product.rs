use sqlx::PgPool;

/// A product of an activity's shop: `product(station_id, action_id)`, "Produto" at R$ 10,00
/// with no discount, 10 in stock and the schema's limit per member (10) until told.
#[derive(Debug, Clone)]
pub struct Product {
    station_id: i64,
    action_id: i64,
    name: String,
    value: i64,
    discount: i64,
    stock: i32,
    limit_per_user: i32,
}

pub fn product(station_id: i64, action_id: i64) -> Product {
    Product {
        station_id,
        action_id,
        name: "Produto".to_owned(),
        value: 1000,
        discount: 0,
        stock: 10,
        limit_per_user: 10,
    }
}

impl Product {
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// The price, in centavos.
    pub fn value(mut self, cents: i64) -> Self {
        self.value = cents;
        self
    }

    /// The discount off the price, in centavos.
    pub fn discount(mut self, cents: i64) -> Self {
        self.discount = cents;
        self
    }

    pub fn stock(mut self, units: i32) -> Self {
        self.stock = units;
        self
    }

    pub fn limit_per_user(mut self, units: i32) -> Self {
        self.limit_per_user = units;
        self
    }

    /// Inserts it (active, nothing reserved): its id.
    pub async fn insert(self, db: &PgPool) -> i64 {
        sqlx::query_scalar(
            "INSERT INTO products (station_id, action_id, name, value, discount_value, stock,
                                   limit_per_user)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(self.station_id)
        .bind(self.action_id)
        .bind(&self.name)
        .bind(self.value)
        .bind(self.discount)
        .bind(self.stock)
        .bind(self.limit_per_user)
        .fetch_one(db)
        .await
        .expect("product")
    }
}
