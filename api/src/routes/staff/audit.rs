//! `GET /api/ops/audit`: the audit log in the grant's scope.

use axum::extract::State;
use domain::staff::{self, AuditEntry};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::params::*;
use crate::error::Messages;
use crate::extract::{Json, Query};
use crate::staff::{OpsResult, Staff};
use crate::state::AppState;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(audit))
}

#[derive(Debug, Deserialize)]
struct AuditParams {
    job_id: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct AuditList {
    entries: Vec<AuditEntry>,
    total: i64,
    page: i64,
    per_page: i64,
}

/// The audit log in the grant's scope, newest first
#[utoipa::path(
    get,
    path = "/audit",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("job_id" = Option<String>, Query, description = "Only the entries that touched this job"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
        ("per_page" = Option<i64>, Query, description = "1 to 200, 50 by default"),
    ),
    responses(
        (status = 200, description = "A page of entries and the total", body = AuditList),
        (status = 400, description = "The query cannot be read", body = Messages),
        (status = 422, description = "A bad page", body = Messages),
    )
)]
async fn audit(
    State(state): State<AppState>,
    staff: Staff,
    Query(params): Query<AuditParams>,
) -> OpsResult<Json<AuditList>> {
    let mut messages = Vec::new();
    let (page, per_page) = parse_page(params.page, params.per_page, &mut messages);
    invalid_if_any(messages)?;
    let job_id = given(params.job_id);
    let mut conn = state.db.acquire().await?;
    let (entries, total) =
        staff::audit_page(&mut conn, staff.scope(), job_id.as_deref(), page, per_page).await?;
    Ok(Json(AuditList {
        entries,
        total,
        page,
        per_page,
    }))
}
