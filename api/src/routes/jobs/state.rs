//! `GET /api/jobs/{id}`: the state of a job the member owns, polled by the web app's
//! `useJobState`. Another member's job answers exactly like an unknown id.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use jobs::JobView;

use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub const JOB_NOT_FOUND: &str = "Tarefa não encontrada";

pub fn router() -> Router<AppState> {
    Router::new().route("/jobs/{id}", get(show))
}

async fn show(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<String>,
) -> ApiResult<Json<JobView>> {
    jobs::state::find_owned(&state.db, &id, member.user_id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(JOB_NOT_FOUND))
}
