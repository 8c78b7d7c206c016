//! The member's wallet (docs/api-wallet.md): the balance, the statement's two lists, and
//! `POST /api/user-earn-points/`, which only ever credits participations the member really
//! completed. The credits other areas' events earn are enqueued by `jobs::kinds::PointsCredit`
//! in each event's own transaction.

use axum::extract::State;
use chrono::{DateTime, Utc};
use domain::wallet::ledger::{self, CreditLine, DebtLine, SpendLine};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::{Json, Path, Query};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

/// The spec's paths exactly, trailing slashes included.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(users_points))
        .routes(routes!(earn_transactions))
        .routes(routes!(use_transactions))
        .routes(routes!(wallet_debts))
        .routes(routes!(user_earn_points))
}

/// An amount in hundredths of a point, serialised as the JSON number of points the
/// screens show (`15050` is `150.5`, `5000` is `50`). For display only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Points(i64);

impl From<ledger::Points> for Points {
    fn from(points: ledger::Points) -> Self {
        let ledger::Points(cents) = points;
        Self(cents)
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0 % 100 == 0 {
            serializer.serialize_i64(self.0 / 100)
        } else {
            // At most two decimals; the nearest double of `n / 100` prints as exactly that.
            serializer.serialize_f64(self.0 as f64 / 100.0)
        }
    }
}

/// The contract shows what the JSON carries: a number of points with at most two decimals.
impl utoipa::PartialSchema for Points {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some(
                "Points, with at most two decimals (150.5); the ledger keeps hundredths.",
            ))
            .into()
    }
}

impl ToSchema for Points {}

// The three kinds below keep the ledger enums' descriptions: they are the contract's.

/// What a credit came from (`credit_lots.source_kind`).
/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum SourceKind {
    Activity,
    Purchase,
    Invitation,
    Donation,
    Refund,
    Topup,
    Adjustment,
    /// A health co-payment's cashback.
    Copay,
}

impl From<ledger::SourceKind> for SourceKind {
    fn from(kind: ledger::SourceKind) -> Self {
        match kind {
            ledger::SourceKind::Activity => Self::Activity,
            ledger::SourceKind::Purchase => Self::Purchase,
            ledger::SourceKind::Invitation => Self::Invitation,
            ledger::SourceKind::Donation => Self::Donation,
            ledger::SourceKind::Refund => Self::Refund,
            ledger::SourceKind::Topup => Self::Topup,
            ledger::SourceKind::Adjustment => Self::Adjustment,
            ledger::SourceKind::Copay => Self::Copay,
        }
    }
}

/// What a spend paid for (`spends.source_kind`).
/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum SpendKind {
    Purchase,
    Donation,
    Transfer,
    Adjustment,
    /// A payment of a debt (`wallet_debts`): what a credit paid of it.
    Debt,
}

impl From<ledger::SpendKind> for SpendKind {
    fn from(kind: ledger::SpendKind) -> Self {
        match kind {
            ledger::SpendKind::Purchase => Self::Purchase,
            ledger::SpendKind::Donation => Self::Donation,
            ledger::SpendKind::Transfer => Self::Transfer,
            ledger::SpendKind::Adjustment => Self::Adjustment,
            ledger::SpendKind::Debt => Self::Debt,
        }
    }
}

/// Stored as the lowercase text of its column, read and written by sqlx like `JobState`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum LotState {
    Pending,
    Available,
    Reversed,
    Expired,
}

impl From<ledger::LotState> for LotState {
    fn from(state: ledger::LotState) -> Self {
        match state {
            ledger::LotState::Pending => Self::Pending,
            ledger::LotState::Available => Self::Available,
            ledger::LotState::Reversed => Self::Reversed,
            ledger::LotState::Expired => Self::Expired,
        }
    }
}

/// A member reads only their own wallet; any other id is refused like `GET /users/{id}`.
fn own(member: Member, user_id: i64) -> ApiResult<i64> {
    if user_id == member.user_id {
        Ok(user_id)
    } else {
        Err(ApiError::Forbidden(NOT_AUTHORIZED.into()))
    }
}

/// Spendable and pending points, also in hundredths (`_cents`), and what the member owes
/// (credits spent and then reversed; the next credits pay it before the balance grows).
#[derive(Debug, Serialize, ToSchema)]
struct WalletBalance {
    user_id: i64,
    points: Points,
    points_cents: i64,
    pending_points: Points,
    pending_cents: i64,
    debt_points: Points,
    debt_cents: i64,
}

/// The caller's wallet balance
#[utoipa::path(
    get,
    path = "/users-points/{user_id}",
    tag = "wallet",
    security(("member" = [])),
    params(("user_id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The balance", body = WalletBalance),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the user id is not the caller's", body = Messages),
    )
)]
async fn users_points(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<WalletBalance>> {
    let user_id = own(member, user_id)?;
    let balance = ledger::balance(&state.db, user_id).await?;
    let debt = ledger::debt(&state.db, user_id).await?;
    Ok(Json(WalletBalance {
        user_id,
        points: Points(balance.balance),
        points_cents: balance.balance,
        pending_points: Points(balance.pending),
        pending_cents: balance.pending,
        debt_points: Points(debt),
        debt_cents: debt,
    }))
}

/// `?where[user_id]={id}&page={n}`: the caller's own id (the default when absent), pages
/// from 1.
#[derive(Debug, Deserialize)]
struct StatementQuery {
    #[serde(rename = "where[user_id]")]
    user_id: Option<i64>,
    page: Option<i64>,
}

impl StatementQuery {
    fn parse(self, member: Member) -> ApiResult<(i64, i64)> {
        let user_id = own(member, self.user_id.unwrap_or(member.user_id))?;
        Ok((user_id, self.page.unwrap_or(1).max(1)))
    }
}

/// What a statement line came from; `id` is null when it was not an activity.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StatementAction)]
struct LineAction {
    id: Option<i64>,
    name: String,
}

/// A credit lot of the statement.
#[derive(Debug, Serialize, ToSchema)]
struct EarnTransaction {
    id: i64,
    points: Points,
    points_cents: i64,
    state: LotState,
    source_kind: SourceKind,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
    available_at: DateTime<Utc>,
    released_at: Option<DateTime<Utc>>,
    expires_at: Option<DateTime<Utc>>,
    action: LineAction,
}

impl From<CreditLine> for EarnTransaction {
    fn from(line: CreditLine) -> Self {
        // The rule stays in the ledger: the statement shows what a credit came from.
        let CreditLine {
            id,
            amount,
            state,
            source_kind,
            rule: _,
            description,
            action_id,
            created_at,
            available_at,
            released_at,
            expires_at,
        } = line;
        Self {
            id,
            points: Points(amount),
            points_cents: amount,
            state: state.into(),
            source_kind: source_kind.into(),
            created_at,
            available_at,
            released_at,
            expires_at,
            action: LineAction {
                id: action_id,
                name: description,
            },
        }
    }
}

/// A spend of the statement.
#[derive(Debug, Serialize, ToSchema)]
struct UseTransaction {
    id: i64,
    points: Points,
    points_cents: i64,
    source_kind: SpendKind,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
    action: LineAction,
}

impl From<SpendLine> for UseTransaction {
    fn from(line: SpendLine) -> Self {
        let SpendLine {
            id,
            amount,
            kind,
            description,
            action_id,
            created_at,
        } = line;
        Self {
            id,
            points: Points(amount),
            points_cents: amount,
            source_kind: kind.into(),
            created_at,
            action: LineAction {
                id: action_id,
                name: description,
            },
        }
    }
}

/// A debt of the statement: credit the member had spent when it was reversed (a refunded
/// purchase, an annulled participation). Later credits pay it first (`Quitação de débito`
/// among the spends) until `settled` reaches `points`.
#[derive(Debug, Serialize, ToSchema)]
struct WalletDebt {
    id: i64,
    points: Points,
    points_cents: i64,
    settled_points: Points,
    settled_cents: i64,
    /// What is still owed, in hundredths.
    open_cents: i64,
    description: String,
    #[serde(rename = "createdAt")]
    created_at: DateTime<Utc>,
    /// When it was paid off; null while open.
    settled_at: Option<DateTime<Utc>>,
}

impl From<DebtLine> for WalletDebt {
    fn from(line: DebtLine) -> Self {
        let DebtLine {
            id,
            amount,
            settled,
            description,
            created_at,
            settled_at,
        } = line;
        Self {
            id,
            points: Points(amount),
            points_cents: amount,
            settled_points: Points(settled),
            settled_cents: settled,
            open_cents: amount - settled,
            description,
            created_at,
            settled_at,
        }
    }
}

/// The caller's credits, newest first, a page at a time
#[utoipa::path(
    get,
    path = "/earn-points-transactions/",
    tag = "wallet",
    security(("member" = [])),
    params(
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
    ),
    responses(
        (status = 200, description = "A page of credits", body = Vec<EarnTransaction>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "the user id is not the caller's", body = Messages),
    )
)]
async fn earn_transactions(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<StatementQuery>,
) -> ApiResult<Json<Vec<EarnTransaction>>> {
    let (user_id, page) = query.parse(member)?;
    let lines = ledger::credits(&state.db, user_id, page).await?;
    Ok(Json(lines.into_iter().map(EarnTransaction::from).collect()))
}

/// The caller's spends, newest first, a page at a time
#[utoipa::path(
    get,
    path = "/use-points-transactions/",
    tag = "wallet",
    security(("member" = [])),
    params(
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
    ),
    responses(
        (status = 200, description = "A page of spends", body = Vec<UseTransaction>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "the user id is not the caller's", body = Messages),
    )
)]
async fn use_transactions(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<StatementQuery>,
) -> ApiResult<Json<Vec<UseTransaction>>> {
    let (user_id, page) = query.parse(member)?;
    let lines = ledger::spends(&state.db, user_id, page).await?;
    Ok(Json(lines.into_iter().map(UseTransaction::from).collect()))
}

/// The caller's debts, newest first, a page at a time
#[utoipa::path(
    get,
    path = "/wallet-debts/",
    tag = "wallet",
    security(("member" = [])),
    params(
        ("where[user_id]" = Option<i64>, Query, description = "The caller's own id (the default)"),
        ("page" = Option<i64>, Query, description = "From 1 (the default)"),
    ),
    responses(
        (status = 200, description = "A page of debts", body = Vec<WalletDebt>),
        (status = 400, description = "A parameter is not a number", body = Messages),
        (status = 403, description = "the user id is not the caller's", body = Messages),
    )
)]
async fn wallet_debts(
    State(state): State<AppState>,
    member: Member,
    Query(query): Query<StatementQuery>,
) -> ApiResult<Json<Vec<WalletDebt>>> {
    let (user_id, page) = query.parse(member)?;
    let lines = ledger::debts(&state.db, user_id, page).await?;
    Ok(Json(lines.into_iter().map(WalletDebt::from).collect()))
}

/// The spec's body. `points` is read by nobody: the amounts come from the participations.
#[derive(Debug, Deserialize, ToSchema)]
struct EarnPoints {
    /// The member's CPF, formatted or as a number.
    #[serde(default)]
    cardid: Value,
    /// The member's CPF again.
    #[serde(default)]
    accountnumber: Value,
    /// An establishment id of the member's station, bare or as `{"id": ...}`.
    #[serde(default)]
    establishment: Value,
}

/// A CPF as a form may send it: a formatted string, or a number that lost leading zeros.
fn cpf_digits(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.chars().filter(char::is_ascii_digit).collect()),
        Value::Number(number) => number.as_u64().map(|n| format!("{n:011}")),
        _ => None,
    }
}

/// An establishment id, bare or as `{"id": ...}`.
fn establishment_id(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        Value::Object(object) => object.get("id").and_then(establishment_id),
        _ => None,
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct Earned {
    points: Points,
    pending_points: Points,
    /// Credits newly queued by this call.
    queued: usize,
}

/// Queues the credits of the caller's completed participations not credited yet
///
/// The amounts come from the participations, never from the body.
#[utoipa::path(
    post,
    path = "/user-earn-points/",
    tag = "wallet",
    security(("member" = [])),
    request_body = EarnPoints,
    responses(
        (status = 200, description = "The balance and how many credits were queued", body = Earned),
        (status = 422, description = "The CPF is not the member's, or the establishment is not of the member's station", body = Messages),
    )
)]
async fn user_earn_points(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<EarnPoints>,
) -> ApiResult<Json<Earned>> {
    let cpf_given = [
        cpf_digits(&request.cardid),
        cpf_digits(&request.accountnumber),
    ];
    let queued = app::wallet::claim_participation_credits(
        &state.db,
        &JobOutbox,
        member.user_id,
        member.station_id,
        [cpf_given[0].as_deref(), cpf_given[1].as_deref()],
        establishment_id(&request.establishment),
    )
    .await?;
    if queued > 0 {
        tracing::info!(
            user_id = member.user_id,
            queued,
            "participation credits queued"
        );
    }
    let balance = ledger::balance(&state.db, member.user_id).await?;
    Ok(Json(Earned {
        points: Points(balance.balance),
        pending_points: Points(balance.pending),
        queued,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn points_print_as_the_screens_read_them() {
        let json = |cents| serde_json::to_string(&Points(cents)).expect("json");
        assert_eq!(json(15050), "150.5");
        assert_eq!(json(5000), "50");
        assert_eq!(json(0), "0");
        assert_eq!(json(1), "0.01");
        assert_eq!(json(-250), "-2.5");
    }

    #[test]
    fn cpfs_and_establishments_are_read_as_forms_send_them() {
        assert_eq!(
            cpf_digits(&json!("529.982.247-25")).as_deref(),
            Some("52998224725")
        );
        assert_eq!(
            cpf_digits(&json!(1_234_567_890)).as_deref(),
            Some("01234567890")
        );
        assert_eq!(cpf_digits(&Value::Null), None);
        assert_eq!(establishment_id(&json!(3)), Some(3));
        assert_eq!(establishment_id(&json!({ "id": 4 })), Some(4));
        assert_eq!(establishment_id(&json!("5")), Some(5));
        assert_eq!(establishment_id(&json!(null)), None);
    }
}
