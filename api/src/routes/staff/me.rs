//! `GET /api/ops/me`: who the console's user is.

use domain::staff;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::extract::Json;
use crate::staff::Staff;
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(me))
}

/// The signed-in staff member and their grant.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StaffMe)]
struct Me {
    user: Person,
    role: Role,
    station: Option<StationRef>,
    can_act: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StaffPerson)]
struct Person {
    id: i64,
    name: String,
    email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StaffStation)]
struct StationRef {
    id: i64,
    name: String,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum Role {
    /// Re-runs, cancels, pauses and releases.
    Support,
    /// Reads everything in scope, acts on nothing.
    Viewer,
}

impl From<staff::Role> for Role {
    fn from(role: staff::Role) -> Self {
        match role {
            staff::Role::Support => Self::Support,
            staff::Role::Viewer => Self::Viewer,
        }
    }
}

/// Who the console's user is, and what their grant allows
#[utoipa::path(
    get,
    path = "/me",
    tag = "staff",
    security(("staff" = [])),
    responses(
        (status = 200, description = "The staff member", body = Me),
    )
)]
async fn me(Staff(grant): Staff) -> Json<Me> {
    let station = grant.scope.station_id().map(|id| StationRef {
        id,
        name: grant.station_name.clone().unwrap_or_default(),
    });
    Json(Me {
        can_act: grant.can_act(),
        user: Person {
            id: grant.user_id.0,
            name: grant.name,
            email: grant.email,
        },
        role: grant.role.into(),
        station,
    })
}
