use sqlx::PgPool;

/// A user of a station: `member(station_id)`, an active member named "Maria" with no
/// password, e-mail or CPF until told. The schema wants an e-mail or a CPF: given neither,
/// the member gets an e-mail no other member has.
#[derive(Debug, Clone)]
pub struct Member {
    station_id: i64,
    name: String,
    email: Option<String>,
    cpf: Option<String>,
    password_hash: Option<String>,
    invite_code: Option<String>,
    active: bool,
    role: &'static str,
}

pub fn member(station_id: i64) -> Member {
    Member {
        station_id,
        name: "Maria".to_owned(),
        email: None,
        cpf: None,
        password_hash: None,
        invite_code: None,
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

    /// The CPF's 11 digits.
    pub fn cpf(mut self, cpf: &str) -> Self {
        self.cpf = Some(cpf.to_owned());
        self
    }

    /// A password's stored hash (`domain::accounts::password::hash`): testkit knows no
    /// hasher, and a test that signs in hashes once for all its members.
    pub fn password_hash(mut self, hash: &str) -> Self {
        self.password_hash = Some(hash.to_owned());
        self
    }

    /// Their member-get-member code.
    pub fn invite_code(mut self, code: &str) -> Self {
        self.invite_code = Some(code.to_owned());
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
            "INSERT INTO users (station_id, name, email, cpf, password_hash, invite_code,
                                active, role)
             VALUES ($1, $2,
                     CASE WHEN $3::text IS NULL AND $4::text IS NULL
                          THEN md5(random()::text) || '@example.com' ELSE $3 END,
                     $4, $5, $6, $7, $8)
             RETURNING id",
        )
        .bind(self.station_id)
        .bind(&self.name)
        .bind(&self.email)
        .bind(&self.cpf)
        .bind(&self.password_hash)
        .bind(&self.invite_code)
        .bind(self.active)
        .bind(self.role)
        .fetch_one(db)
        .await
        .expect("member")
    }
}
