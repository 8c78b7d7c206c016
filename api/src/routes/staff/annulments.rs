//! `POST /api/ops/participations/{id}/annul`: support staff annul a participation, and what
//! it granted is taken back (docs/api-activities.md, "Annulling a participation"); audited.

use axum::extract::State;
use domain::activities::annulment;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(annul_participation))
}

/// What an annulment took back.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Annulled {
    pub participation_id: i64,
    pub user_id: i64,
    pub station_id: i64,
    pub action_id: i64,
    /// Centavos taken out of the member's wallet (pending or balance); 0 when the credit
    /// had not been written yet (it never will be) or the activity paid nothing.
    pub reversed_cents: i64,
    /// Centavos the member had already spent of the credit: recorded as a debt, paid by
    /// their balance left and otherwise by their next credits.
    pub debt_cents: i64,
    /// The names of the trophies taken back.
    pub trophies: Vec<String>,
    /// The lucky numbers voided.
    pub lucky_numbers: Vec<i64>,
}

impl From<annulment::Annulled> for Annulled {
    fn from(annulled: annulment::Annulled) -> Self {
        let annulment::Annulled {
            participation_id,
            user_id,
            station_id,
            action_id,
            reversed_cents,
            debt_cents,
            trophies,
            lucky_numbers,
        } = annulled;
        Self {
            participation_id,
            user_id,
            station_id,
            action_id,
            reversed_cents,
            debt_cents,
            trophies,
            lucky_numbers,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct AnnulBody {
    /// Why (kept with the annulled participation and in the audit log); required.
    #[serde(default)]
    reason: String,
}

/// Annuls a participation and takes back what it granted
///
/// The activity's credit (reversed, or never written if its job has not run), the
/// trophies that no longer hold, its lucky numbers. Support staff only, within the grant's
/// stations; recorded in the audit log.
#[utoipa::path(
    post,
    path = "/participations/{id}/annul",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The participation's id")),
    request_body = AnnulBody,
    responses(
        (status = 200, description = "Annulled; what was taken back", body = Annulled),
        (status = 403, description = "a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "No such participation in the grant's scope", body = ErrorMessage),
        (status = 409, description = "Annulled already", body = ErrorMessage),
        (status = 422, description = "No reason, or one over 500 characters", body = Messages),
    )
)]
async fn annul_participation(
    State(state): State<AppState>,
    staff: Staff,
    Path(participation_id): Path<i64>,
    Json(body): Json<AnnulBody>,
) -> OpsResult<Json<Annulled>> {
    staff.require_support()?;
    let annulled = annulment::annul_audited(
        &state.db,
        participation_id,
        staff.scope(),
        staff.user_id(),
        &body.reason,
    )
    .await?;
    tracing::info!(
        staff_id = staff.user_id(),
        participation_id,
        user_id = annulled.user_id,
        reversed_cents = annulled.reversed_cents,
        "participation annulled"
    );
    Ok(Json(annulled.into()))
}
