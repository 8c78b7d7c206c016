//! Builders for the rows most tests start from, so a test names only what matters to it and
//! the columns it leaves alone take the schema's defaults: `station("clube").insert(&db)`,
//! `member(station_id).email("maria@example.com").insert(&db)`.

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

/// A user of a station: `member(station_id)`, an active member named "Maria" with no
/// password, e-mail or CPF until told (the schema wants one of the two).
#[derive(Debug, Clone)]
pub struct Member {
    station_id: i64,
    name: String,
    email: Option<String>,
    active: bool,
    role: &'static str,
}

pub fn member(station_id: i64) -> Member {
    Member {
        station_id,
        name: "Maria".to_owned(),
        email: None,
        active: true,
        role: "member",
    }
}

impl Member {
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    pub fn email(mut self, email: &str) -> Self {
        self.email = Some(email.to_owned());
        self
    }

    /// Signed up but not activated.
    pub fn inactive(mut self) -> Self {
        self.active = false;
        self
    }

    /// Staff of the station (`role = 'staff'`).
    pub fn staff(mut self) -> Self {
        self.role = "staff";
        self
    }

    /// Inserts it: its id.
    pub async fn insert(self, db: &PgPool) -> i64 {
        sqlx::query_scalar(
            "INSERT INTO users (station_id, name, email, active, role)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(self.station_id)
        .bind(&self.name)
        .bind(&self.email)
        .bind(self.active)
        .bind(self.role)
        .fetch_one(db)
        .await
        .expect("member")
    }
}
