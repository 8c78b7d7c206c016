//! `POST /validate-mgm-code/{code}`: whether an invite code `{code}-U{inviterId}-E{stationId}`
//! still brings points, and how many.

use axum::extract::State;
use domain::accounts::mgm;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{Json, Path};
use crate::state::AppState;

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MgmAction)]
pub(super) struct ActionRef {
    id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MgmInviter)]
pub(super) struct InviterRef {
    id: i64,
    /// The first name only: the invite is public, the inviter's full name need not be.
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(super) struct MgmAnswer {
    valid: bool,
    action: Option<ActionRef>,
    points_invited: i32,
    points_inviter: i32,
    inviter: Option<InviterRef>,
}

impl From<Option<mgm::Offer>> for MgmAnswer {
    fn from(offer: Option<mgm::Offer>) -> Self {
        match offer {
            Some(offer) => Self {
                valid: true,
                action: Some(ActionRef { id: offer.rule.id }),
                points_invited: offer.rule.points_invited,
                points_inviter: offer.rule.points_inviter,
                inviter: Some(InviterRef {
                    id: offer.inviter_id,
                    name: offer.inviter_first_name,
                }),
            },
            None => Self {
                valid: false,
                action: None,
                points_invited: 0,
                points_inviter: 0,
                inviter: None,
            },
        }
    }
}

/// Whether a member-get-member invite code brings points, and how many
///
/// Valid when the inviter is an active member of the code's station whose invite code
/// matches, and the station has an active offer. Anything else is simply not valid.
#[utoipa::path(
    post,
    path = "/validate-mgm-code/{code}",
    tag = "accounts",
    params(("code" = String, Path, description = "The invite code `{code}-U{inviterId}-E{stationId}`")),
    responses((status = 200, description = "Whether the code is valid, with its offer", body = MgmAnswer))
)]
pub(super) async fn validate_mgm_code(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> ApiResult<Json<MgmAnswer>> {
    Ok(Json(mgm::offer(&state.db, &code).await?.into()))
}
