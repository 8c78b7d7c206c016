//! `GET /api/ops/audit`: the audit log in the grant's scope.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::shared::paging::Listed;
use domain::staff;
use serde::{Deserialize, Serialize};
use serde_json::Value;
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

/// The kinds of staff action, as stored in `staff_audit.action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub(super) enum AuditAction {
    #[serde(rename = "job.rerun")]
    JobRerun,
    #[serde(rename = "jobs.rerun")]
    JobsRerun,
    #[serde(rename = "job.cancel")]
    JobCancel,
    #[serde(rename = "queue.pause")]
    QueuePause,
    #[serde(rename = "queue.resume")]
    QueueResume,
    #[serde(rename = "cashback.release")]
    CashbackRelease,
    #[serde(rename = "order.refund")]
    OrderRefund,
    #[serde(rename = "participation.annul")]
    ParticipationAnnul,
    /// A reported post or comment reviewed and left as it is.
    #[serde(rename = "content.keep")]
    ContentKeep,
    /// A post or comment hidden from the feed (it can be shown again).
    #[serde(rename = "content.hide")]
    ContentHide,
    /// A post or comment removed for good from what members see.
    #[serde(rename = "content.remove")]
    ContentRemove,
    /// A subscription's unpaid period tried again now.
    #[serde(rename = "subscription.retry")]
    SubscriptionRetry,
    /// A subscription cancelled by staff.
    #[serde(rename = "subscription.cancel")]
    SubscriptionCancel,
    /// A transfer request or a top-up under review confirmed: its points credited.
    #[serde(rename = "topup.confirm")]
    TopupConfirm,
    /// A transfer request or a top-up under review refused (a paid one's charge refunded).
    #[serde(rename = "topup.reject")]
    TopupReject,
    /// A credited PIX or card top-up refunded: its unspent points taken back.
    #[serde(rename = "topup.refund")]
    TopupRefund,
    /// A support message answered (the answer e-mailed to its sender).
    #[serde(rename = "support.answer")]
    SupportAnswer,
    /// A service appointment confirmed (or re-scheduled) by its desk.
    #[serde(rename = "appointment.confirm")]
    AppointmentConfirm,
    #[serde(rename = "appointment.done")]
    AppointmentDone,
    #[serde(rename = "appointment.absent")]
    AppointmentAbsent,
    #[serde(rename = "appointment.cancel")]
    AppointmentCancel,
    /// A legal or accounting case recorded or changed by its desk.
    #[serde(rename = "case.record")]
    CaseRecord,
    /// A health co-payment recorded, and its cashback credited.
    #[serde(rename = "health.copay")]
    HealthCopay,
    /// News published for a desk's page.
    #[serde(rename = "news.publish")]
    NewsPublish,
    /// A desk's CSV of cases or appointments sent for import.
    #[serde(rename = "services.import")]
    ServicesImport,
}

impl From<staff::Action> for AuditAction {
    fn from(action: staff::Action) -> Self {
        use staff::Action;
        match action {
            Action::JobRerun => Self::JobRerun,
            Action::JobsRerun => Self::JobsRerun,
            Action::JobCancel => Self::JobCancel,
            Action::QueuePause => Self::QueuePause,
            Action::QueueResume => Self::QueueResume,
            Action::CashbackRelease => Self::CashbackRelease,
            Action::OrderRefund => Self::OrderRefund,
            Action::ParticipationAnnul => Self::ParticipationAnnul,
            Action::ContentKeep => Self::ContentKeep,
            Action::ContentHide => Self::ContentHide,
            Action::ContentRemove => Self::ContentRemove,
            Action::SubscriptionRetry => Self::SubscriptionRetry,
            Action::SubscriptionCancel => Self::SubscriptionCancel,
            Action::TopupConfirm => Self::TopupConfirm,
            Action::TopupReject => Self::TopupReject,
            Action::TopupRefund => Self::TopupRefund,
            Action::SupportAnswer => Self::SupportAnswer,
            Action::AppointmentConfirm => Self::AppointmentConfirm,
            Action::AppointmentDone => Self::AppointmentDone,
            Action::AppointmentAbsent => Self::AppointmentAbsent,
            Action::AppointmentCancel => Self::AppointmentCancel,
            Action::CaseRecord => Self::CaseRecord,
            Action::HealthCopay => Self::HealthCopay,
            Action::NewsPublish => Self::NewsPublish,
            Action::ServicesImport => Self::ServicesImport,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub(super) struct AuditUser {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub(super) struct AuditEntry {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub user: AuditUser,
    pub action: AuditAction,
    pub station_id: Option<i64>,
    pub job_ids: Vec<String>,
    pub details: Value,
}

impl From<staff::AuditEntry> for AuditEntry {
    fn from(entry: staff::AuditEntry) -> Self {
        Self {
            id: entry.id,
            created_at: entry.created_at,
            user: AuditUser {
                id: entry.user.id,
                name: entry.user.name,
                email: entry.user.email,
            },
            action: entry.action.into(),
            station_id: entry.station_id,
            job_ids: entry.job_ids,
            details: entry.details,
        }
    }
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
    let listed =
        staff::audit_page(&mut conn, staff.scope(), job_id.as_deref(), page, per_page).await?;
    let Listed { items, total } = listed.map(AuditEntry::from);
    Ok(Json(AuditList {
        entries: items,
        total,
        page,
        per_page,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_serialize_as_stored() {
        assert_eq!(
            serde_json::to_value(AuditAction::from(staff::Action::JobsRerun)).expect("json"),
            "jobs.rerun"
        );
        assert_eq!(
            serde_json::to_value(AuditAction::from(staff::Action::CashbackRelease)).expect("json"),
            "cashback.release"
        );
    }
}
