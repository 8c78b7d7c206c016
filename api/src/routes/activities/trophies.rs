//! `GET /trophies/` (spec 001): the trophies the member holds.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::activities::trophies;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, Messages};
use crate::extract::{Json, Query};
use crate::member::Member;
use crate::member::own_scope;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(member_trophies))
}

/// A trophy a member holds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemberTrophy {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub trophy_image: Option<String>,
    /// When it was granted.
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

impl From<trophies::MemberTrophy> for MemberTrophy {
    fn from(held: trophies::MemberTrophy) -> Self {
        Self {
            id: held.id,
            name: held.name,
            description: held.description,
            trophy_image: held.trophy_image,
            created_at: held.granted_at,
        }
    }
}

#[derive(Debug, Deserialize)]
struct TrophiesQuery {
    #[serde(rename = "where[station_id]")]
    station_id: Option<i64>,
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
}

/// The caller's trophies
///
/// Newest first. `where[station_id]` and `where[user_id]` are the caller's (absent means
/// the caller's); anything else is refused.
#[utoipa::path(
    get,
    path = "/trophies/",
    tag = "activities",
    security(("member" = [])),
    params(
        ("where[station_id]" = Option<i64>, Query, description = "The caller's station"),
        ("where[user_id]" = Option<i64>, Query, description = "The caller"),
    ),
    responses(
        (status = 200, description = "The trophies held", body = [MemberTrophy]),
        (status = 403, description = "Another member's or station's", body = Messages),
    )
)]
async fn member_trophies(
    State(state): State<AppState>,
    member: Member,
    Query(scope): Query<TrophiesQuery>,
) -> ApiResult<Json<Vec<MemberTrophy>>> {
    own_scope(member, scope.station_id, scope.user_id)?;
    let held = trophies::held(&state.db, member.user()).await?;
    Ok(Json(held.into_iter().map(MemberTrophy::from).collect()))
}
