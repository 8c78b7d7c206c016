//! `GET /api/jobs/{id}`: the state of a job the member owns, polled by the web app's
//! `useJobState`. Another member's job answers exactly like an unknown id.

use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub const JOB_NOT_FOUND: &str = "Tarefa não encontrada";

// Also what staff filter the console's jobs by (`?state=`). No doc comment: it would
// become the contract's description, which has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Due, waiting for a worker (or fetched and about to start).
    Queued,
    /// Waiting for its `run_at`.
    Scheduled,
    Running,
    /// An attempt failed or was interrupted; another one is coming at `run_at`.
    Retrying,
    Succeeded,
    /// For good: attempts exhausted, or a failure retrying cannot fix.
    Failed,
    Cancelled,
}

impl From<jobs::JobState> for JobState {
    fn from(state: jobs::JobState) -> Self {
        match state {
            jobs::JobState::Queued => Self::Queued,
            jobs::JobState::Scheduled => Self::Scheduled,
            jobs::JobState::Running => Self::Running,
            jobs::JobState::Retrying => Self::Retrying,
            jobs::JobState::Succeeded => Self::Succeeded,
            jobs::JobState::Failed => Self::Failed,
            jobs::JobState::Cancelled => Self::Cancelled,
        }
    }
}

impl From<JobState> for jobs::JobState {
    fn from(state: JobState) -> Self {
        match state {
            JobState::Queued => Self::Queued,
            JobState::Scheduled => Self::Scheduled,
            JobState::Running => Self::Running,
            JobState::Retrying => Self::Retrying,
            JobState::Succeeded => Self::Succeeded,
            JobState::Failed => Self::Failed,
            JobState::Cancelled => Self::Cancelled,
        }
    }
}

/// The answer of `GET /api/jobs/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobView {
    pub id: String,
    pub kind: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub progress: Option<i16>,
    pub result: Option<Value>,
    pub error: Option<String>,
}

impl From<jobs::JobView> for JobView {
    fn from(job: jobs::JobView) -> Self {
        let jobs::JobView {
            id,
            kind,
            state,
            attempts,
            max_attempts,
            run_at,
            started_at,
            finished_at,
            progress,
            result,
            error,
        } = job;
        Self {
            id,
            kind,
            state: state.into(),
            attempts,
            max_attempts,
            run_at,
            started_at,
            finished_at,
            progress,
            result,
            error,
        }
    }
}

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
        .map(|job| Json(JobView::from(job)))
        .ok_or_else(|| ApiError::not_found(JOB_NOT_FOUND))
}
