use sqlx::PgPool;

/// An activity of a station: `activity(station_id)`, a published raw content activity
/// (type 16) named "Atividade", paying 10 points, open from a day ago to a day from now,
/// with no participation limit, until told.
#[derive(Debug, Clone)]
pub struct Activity {
    station_id: i64,
    type_id: i16,
    name: String,
    points: i32,
    additional_cashback: i32,
    limit_per_user: Option<i32>,
    /// The window in days from now; `None`: no dates.
    window: Option<(i32, i32)>,
    active: bool,
    public: bool,
    featured: bool,
    priority: i32,
}

pub fn activity(station_id: i64) -> Activity {
    Activity {
        station_id,
        type_id: 16,
        name: "Atividade".to_owned(),
        points: 10,
        additional_cashback: 0,
        limit_per_user: None,
        window: Some((-1, 1)),
        active: true,
        public: false,
        featured: false,
        priority: 0,
    }
}

impl Activity {
    /// The spec's `type_id` (6 a quiz, 18 a video playlist, 20 a donation ...).
    pub fn type_id(mut self, type_id: i16) -> Self {
        self.type_id = type_id;
        self
    }

    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    pub fn points(mut self, points: i32) -> Self {
        self.points = points;
        self
    }

    pub fn additional_cashback(mut self, cents: i32) -> Self {
        self.additional_cashback = cents;
        self
    }

    pub fn limit_per_user(mut self, limit: i32) -> Self {
        self.limit_per_user = Some(limit);
        self
    }

    /// Open from `from` days from now to `to` days from now (negative: in the past).
    pub fn window_days(mut self, from: i32, to: i32) -> Self {
        self.window = Some((from, to));
        self
    }

    /// No participation dates at all.
    pub fn no_dates(mut self) -> Self {
        self.window = None;
        self
    }

    /// Not published (`active = false`).
    pub fn unpublished(mut self) -> Self {
        self.active = false;
        self
    }

    /// Shown to visitors (`public-actions`).
    pub fn public(mut self) -> Self {
        self.public = true;
        self
    }

    /// In the featured carousel.
    pub fn featured(mut self) -> Self {
        self.featured = true;
        self
    }

    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// Inserts it (no description, links, videos or prerequisites): its id.
    pub async fn insert(self, db: &PgPool) -> i64 {
        let (from, to) = self.window.unzip();
        sqlx::query_scalar(
            "INSERT INTO actions (station_id, type_id, name, points, additional_cashback,
                                  limit_per_user, participation_start, participation_end,
                                  active, public, featured, priority)
             VALUES ($1, $2, $3, $4, $5, $6,
                     now() + make_interval(days => $7), now() + make_interval(days => $8),
                     $9, $10, $11, $12)
             RETURNING id",
        )
        .bind(self.station_id)
        .bind(self.type_id)
        .bind(&self.name)
        .bind(self.points)
        .bind(self.additional_cashback)
        .bind(self.limit_per_user)
        .bind(from)
        .bind(to)
        .bind(self.active)
        .bind(self.public)
        .bind(self.featured)
        .bind(self.priority)
        .fetch_one(db)
        .await
        .expect("activity")
    }
}
