//! `GET /api/jobs/{id}`: the state of a job the member owns, polled by the web app's
//! `useJobState`. Another member's job answers exactly like an unknown id.

use axum::extract::State;
use jobs::JobView;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub const JOB_NOT_FOUND: &str = "Tarefa não encontrada";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_job_state))
}

/// The state of a job the caller owns
///
/// Polled by the web app until the state is final (`succeeded`, `failed`, `cancelled`).
#[utoipa::path(
    get,
    path = "/jobs/{id}",
    tag = "jobs",
    security(("member" = [])),
    params(("id" = String, Path, description = "The job id (a ULID) an earlier answer gave")),
    responses(
        (status = 200, description = "The job", body = JobView),
        (status = 404, description = "No such job, or another member's", body = ErrorMessage),
    )
)]
async fn show_job_state(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<String>,
) -> ApiResult<Json<JobView>> {
    jobs::state::find_owned(&state.db, &id, member.user_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(JOB_NOT_FOUND))
}
