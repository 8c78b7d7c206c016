use sqlx::PgPool;

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
