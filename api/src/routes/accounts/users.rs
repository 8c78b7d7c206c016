//! A member's own data: `GET /api/users-web/{id}` (the web app's user), `GET /api/users/{id}`
//! (the member card, a one-element list), and the public card check
//! `GET /api/users/{id}/validation` behind the card's QR code.

use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use domain::accounts::{profile, user};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, Messages};
use crate::extract::{Json, Path};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::routes::accounts::member_card::MemberCard;
use crate::routes::stations::branding::Establishment;
use crate::routes::subscriptions::{UserSubscription, member_subscription};
use crate::routes::wallet::points::Points;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(user_data))
        .routes(routes!(member_card_user))
        .routes(routes!(member_card_validation))
}

/// The user as the web app keeps it in its session. Field names follow the spec.
#[derive(Debug, Serialize, ToSchema)]
pub struct User {
    pub id: i64,
    pub station_id: i64,
    pub name: String,
    pub email: Option<String>,
    pub cpf: Option<String>,
    pub tel: Option<String>,
    pub birthday: Option<NaiveDate>,
    pub state: Option<String>,
    pub city: Option<String>,
    pub image: Option<String>,
    /// The first part of the member's own invite code `{invite_code}-U{id}-E{station_id}`.
    pub invite_code: Option<String>,
    /// 1 company admin, 2 participant.
    pub type_id: i16,
    /// `member` or `staff`; staff reach the support tools of their own station only.
    pub role: String,
    /// 1 active, 0 waiting for activation (the spec compares it with 0).
    pub active: i32,
    /// The spendable wallet balance, as the JSON number of points the screens show.
    pub points: Points,
    #[serde(rename = "briefingDone")]
    pub briefing_done: bool,
    /// False for a simple sign-up that has not set one: the profile asks for the current
    /// password only when there is one.
    pub has_password: bool,
    #[serde(rename = "deletedAt")]
    pub deleted_at: Option<DateTime<Utc>>,
    /// The first establishment the user is linked to; `None` blocks the member area.
    pub establishment: Option<Establishment>,
    /// Postal addresses, the main one first.
    pub addresses: Vec<UserAddress>,
    /// The member's live plan (`incomplete`, `active`, `past_due`), null without one.
    pub subscription: Option<UserSubscription>,
}

impl User {
    /// The user with their live plan read (the conversion from the account leaves it null).
    pub async fn with_subscription(mut self, state: &AppState) -> ApiResult<Self> {
        self.subscription = member_subscription(
            state,
            domain::shared::ids::StationId(self.station_id),
            domain::shared::ids::UserId(self.id),
        )
        .await?;
        Ok(self)
    }
}

impl From<user::User> for User {
    fn from(user: user::User) -> Self {
        let user::User {
            id,
            station_id,
            name,
            email,
            cpf,
            tel,
            birthday,
            state,
            city,
            image,
            invite_code,
            type_id,
            role,
            active,
            points,
            briefing_done,
            has_password,
            deleted_at,
            establishment,
            addresses,
        } = user;
        Self {
            id,
            station_id,
            name,
            email,
            cpf,
            tel,
            birthday,
            state,
            city,
            image,
            invite_code,
            type_id,
            role,
            active,
            points: points.into(),
            briefing_done,
            has_password,
            deleted_at,
            establishment: establishment.map(Establishment::from),
            addresses: addresses.into_iter().map(UserAddress::from).collect(),
            subscription: None,
        }
    }
}

/// The spec's `addresses` entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserAddress {
    pub id: i64,
    pub zipcode: String,
    pub line_1: String,
    pub number: String,
    pub line_2: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
}

impl From<profile::UserAddress> for UserAddress {
    fn from(address: profile::UserAddress) -> Self {
        Self {
            id: address.id,
            zipcode: address.zipcode,
            line_1: address.line_1,
            number: address.number,
            line_2: address.line_2,
            neighborhood: address.neighborhood,
            city: address.city,
            state: address.state,
        }
    }
}

/// A member reads only their own account: any other id, in this station or another, is
/// refused the same way.
async fn own_user(state: &AppState, member: Member, id: i64) -> ApiResult<User> {
    if id != member.user_id {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    user::find(&state.db, member.user())
        .await?
        .map(User::from)
        .ok_or_else(|| ApiError::Forbidden(NOT_AUTHORIZED.into()))?
        .with_subscription(state)
        .await
}

/// The caller's own account, as the web app keeps it
#[utoipa::path(
    get,
    path = "/users-web/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The account", body = User),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
    )
)]
async fn user_data(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<User>> {
    own_user(&state, member, id).await.map(Json)
}

/// The spec's member card user: the account and what its card shows.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberCardUser {
    #[serde(flatten)]
    pub user: User,
    /// Null where the station shows no member card (`member_card_access`).
    pub member_card: Option<MemberCard>,
}

/// The caller's member card data (a one-element list)
#[utoipa::path(
    get,
    path = "/users/{id}",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The account with its member card, alone in a list", body = Vec<MemberCardUser>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "the id is not the caller's", body = Messages),
    )
)]
async fn member_card_user(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<MemberCardUser>>> {
    let user = own_user(&state, member, id).await?;
    let member_card = app::accounts::member_card::card(&state.db, member.station(), member.user())
        .await?
        .map(MemberCard::from);
    Ok(Json(vec![MemberCardUser { user, member_card }]))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MemberCardValidation)]
struct Validation {
    #[serde(rename = "isValid")]
    is_valid: bool,
}

/// Whether a member card is valid
///
/// Open to anyone who scans the card: answers only whether it is valid, no personal data.
#[utoipa::path(
    get,
    path = "/users/{id}/validation",
    tag = "accounts",
    params(("id" = i64, Path, description = "The user id on the card")),
    responses(
        (status = 200, description = "Whether the card is valid", body = Validation),
        (status = 400, description = "The id is not a number", body = Messages),
    )
)]
async fn member_card_validation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<Json<Validation>> {
    let is_valid = user::is_valid_member(&state.db, id).await?;
    Ok(Json(Validation { is_valid }))
}
