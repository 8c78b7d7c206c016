use sqlx::PgPool;

/// A station: `station(subdomain)`, named "Clube" at `https://clube.example.com`, in the
/// schema's default time zone and with no host of its own, unless told.
#[derive(Debug, Clone)]
pub struct Station {
    subdomain: String,
    name: String,
    url: String,
    custom_host: Option<String>,
    time_zone: Option<String>,
}

pub fn station(subdomain: &str) -> Station {
    Station {
        subdomain: subdomain.to_owned(),
        name: "Clube".to_owned(),
        url: "https://clube.example.com".to_owned(),
        custom_host: None,
        time_zone: None,
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

    /// A host name of its own (`clube.azul.com.br`), besides its subdomain.
    pub fn custom_host(mut self, host: &str) -> Self {
        self.custom_host = Some(host.to_owned());
        self
    }

    /// The IANA zone its members' dates are in (`America/Manaus`).
    pub fn time_zone(mut self, zone: &str) -> Self {
        self.time_zone = Some(zone.to_owned());
        self
    }

    /// Inserts it (no establishment, default flags): its id.
    pub async fn insert(self, db: &PgPool) -> i64 {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO stations (name, subdomain, url, custom_host) VALUES ($1, $2, $3, $4)
             RETURNING id",
        )
        .bind(&self.name)
        .bind(&self.subdomain)
        .bind(&self.url)
        .bind(&self.custom_host)
        .fetch_one(db)
        .await
        .expect("station");
        if let Some(zone) = &self.time_zone {
            sqlx::query("UPDATE stations SET time_zone = $2 WHERE id = $1")
                .bind(id)
                .bind(zone)
                .execute(db)
                .await
                .expect("time zone");
        }
        id
    }
}
