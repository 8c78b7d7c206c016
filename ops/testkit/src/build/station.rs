use sqlx::PgPool;

/// A station: `station(subdomain)`, named "Clube" at `https://clube.example.com` unless told.
#[derive(Debug, Clone)]
pub struct Station {
    subdomain: String,
    name: String,
    url: String,
}

pub fn station(subdomain: &str) -> Station {
    Station {
        subdomain: subdomain.to_owned(),
        name: "Clube".to_owned(),
        url: "https://clube.example.com".to_owned(),
    }
}

impl Station {
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    pub fn url(mut self, url: &str) -> Self {
        self.url = url.to_owned();
        self
    }

    /// Inserts it (no establishment, default flags): its id.
    pub async fn insert(self, db: &PgPool) -> i64 {
        sqlx::query_scalar(
            "INSERT INTO stations (name, subdomain, url) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(&self.name)
        .bind(&self.subdomain)
        .bind(&self.url)
        .fetch_one(db)
        .await
        .expect("station")
    }
}
