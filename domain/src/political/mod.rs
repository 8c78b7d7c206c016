//! The political-union page (spec 002 "Political"; docs/api-services.md "Political"): the
//! station's 'Temas de interesse' ([`themes`]) and the members' 'Sugerir tema' suggestions
//! ([`check`], [`within_limit`], [`insert`]), e-mailed to the political desk (`mail`).
//! Only where the station offers the desk (`stations.political_access`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use sqlx::{PgConnection, PgExecutor};

use crate::services::allowance::{self, TOO_MANY_REQUESTS};
use crate::services::{DESCRIPTION_MAX, DESCRIPTION_TOO_LONG, Desk, ServiceRefused};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{StationId, UserId};
use crate::shared::validate::{self, message};

pub mod mail;

#[derive(Debug, thiserror::Error)]
pub enum PoliticalRefused {
    /// The station does not offer the political desk.
    #[error(transparent)]
    Unavailable(ServiceRefused),
    /// One `field: message` per broken rule.
    #[error("invalid: {0:?}")]
    Invalid(Vec<String>),
    /// The member's hourly allowance is used up.
    #[error("too many suggestions")]
    TooMany { retry_after: u64 },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<ServiceRefused> for PoliticalRefused {
    fn from(refused: ServiceRefused) -> Self {
        match refused {
            ServiceRefused::Db(err) => Self::Db(err),
            refused => Self::Unavailable(refused),
        }
    }
}

impl IntoFailure for PoliticalRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::Unavailable(refused) => refused.into_failure(),
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::TooMany { retry_after } => Failure::TooMany {
                message: TOO_MANY_REQUESTS.into(),
                retry_after,
            },
            Self::Db(err) => err.into_failure(),
        }
    }
}

/// One of a theme's 'itens de destaque': a point and the union's position on it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Highlight {
    #[serde(default)]
    pub descricao_item: String,
    #[serde(default)]
    pub posicionamento: String,
}

/// Something the union did about a theme, and when (`2026-10-14`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UnionAction {
    #[serde(default)]
    pub data_acao: String,
    #[serde(default)]
    pub descricao_acao: String,
}

/// A case the theme is argued in, and its court.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ThemeProcess {
    #[serde(default)]
    pub identificacao_processo: String,
    #[serde(default, rename = "tribunalOrgao")]
    pub court: String,
}

/// A published theme, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Theme {
    pub id: i64,
    pub kind: String,
    pub title: String,
    pub description: String,
    pub interested: Vec<String>,
    pub highlights: Json<Vec<Highlight>>,
    pub actions: Json<Vec<UnionAction>>,
    pub processes: Json<Vec<ThemeProcess>>,
}

/// A theme as the desk (and the demo seed, and tests) write one.
#[derive(Debug, Clone, Default)]
pub struct NewTheme {
    pub station_id: i64,
    pub kind: String,
    pub title: String,
    pub description: String,
    pub interested: Vec<String>,
    pub highlights: Vec<Highlight>,
    pub actions: Vec<UnionAction>,
    pub processes: Vec<ThemeProcess>,
    pub published: bool,
    pub position: i32,
}

/// Stores a theme; answers its id.
pub async fn create_theme(db: impl PgExecutor<'_>, theme: &NewTheme) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO political_themes (station_id, kind, title, description, interested,
                                       highlights, actions, processes, published, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING id",
    )
    .bind(theme.station_id)
    .bind(theme.kind.trim())
    .bind(theme.title.trim())
    .bind(theme.description.trim())
    .bind(&theme.interested)
    .bind(Json(&theme.highlights))
    .bind(Json(&theme.actions))
    .bind(Json(&theme.processes))
    .bind(theme.published)
    .bind(theme.position)
    .fetch_one(db)
    .await
}

/// The station's published themes in the desk's order (`position`, then oldest first).
pub async fn themes(db: impl PgExecutor<'_>, station: StationId) -> sqlx::Result<Vec<Theme>> {
    sqlx::query_as(
        "SELECT id, kind, title, description, interested, highlights, actions, processes
           FROM political_themes
          WHERE station_id = $1 AND published
          ORDER BY position, id",
    )
    .bind(station)
    .fetch_all(db)
    .await
}

/// A suggestion's description: required, at most [`DESCRIPTION_MAX`] characters, trimmed.
pub fn check(description: Option<&str>) -> Result<String, PoliticalRefused> {
    let text = description.map(str::trim).unwrap_or_default();
    if validate::required(text).is_err() {
        return Err(PoliticalRefused::Invalid(vec![format!(
            "description: {}",
            message::REQUIRED
        )]));
    }
    if validate::max_length(text, DESCRIPTION_MAX).is_err() {
        return Err(PoliticalRefused::Invalid(vec![DESCRIPTION_TOO_LONG.into()]));
    }
    Ok(text.to_string())
}

/// Refuses a suggestion once the member's hourly allowance at the political desk is used
/// up (`services::allowance`, shared with every desk's requests).
pub async fn within_limit(tx: &mut PgConnection, user: UserId) -> Result<(), PoliticalRefused> {
    match allowance::used_up(tx, user, Desk::Political).await? {
        None => Ok(()),
        Some(retry_after) => Err(PoliticalRefused::TooMany { retry_after }),
    }
}

/// A stored suggestion.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Suggestion {
    pub id: i64,
    pub station_id: i64,
    pub user_id: Option<i64>,
    pub description: String,
    pub created_at: DateTime<Utc>,
}

/// Stores a member's suggestion.
pub async fn insert(
    db: impl PgExecutor<'_>,
    station: StationId,
    user: UserId,
    description: &str,
) -> sqlx::Result<Suggestion> {
    sqlx::query_as(
        "INSERT INTO political_suggestions (station_id, user_id, description)
         VALUES ($1, $2, $3)
         RETURNING id, station_id, user_id, description, created_at",
    )
    .bind(station)
    .bind(user)
    .bind(description)
    .fetch_one(db)
    .await
}

/// Who sent a suggestion, as the desk's e-mail names them.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Author {
    pub name: String,
    pub email: Option<String>,
}

/// The member's name and address, within their station.
pub async fn author(
    db: impl PgExecutor<'_>,
    station: StationId,
    user: UserId,
) -> sqlx::Result<Option<Author>> {
    sqlx::query_as("SELECT name, email FROM users WHERE id = $1 AND station_id = $2")
        .bind(user)
        .bind(station)
        .fetch_optional(db)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(refused: PoliticalRefused) -> Vec<String> {
        match refused {
            PoliticalRefused::Invalid(messages) => messages,
            other => panic!("not invalid: {other:?}"),
        }
    }

    #[test]
    fn a_description_is_required_and_at_most_1000_characters() {
        assert_eq!(
            messages(check(None).expect_err("refused")),
            ["description: Esse campo é obrigatório"]
        );
        assert_eq!(
            messages(check(Some("   ")).expect_err("refused")),
            ["description: Esse campo é obrigatório"]
        );
        assert_eq!(
            messages(check(Some(&"á".repeat(1001))).expect_err("refused")),
            [DESCRIPTION_TOO_LONG]
        );
        assert_eq!(
            check(Some(&"á".repeat(1000)))
                .expect("kept")
                .chars()
                .count(),
            1000
        );
        assert_eq!(check(Some("  Reforma  ")).expect("kept"), "Reforma");
    }
}
