//! Invitations (spec 001 types 1 and 19): `POST /send-html-to-mails-mgm` and
//! `/send-html-to-mails-mgp` mail up to five addresses the member's invite link, each
//! e-mail a `mail.send` job queued with the invitation's rows; `GET
//! /member-get-members/{userId}` lists who signed up through that link.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::Config;
use domain::activities::invitations::{self, Invitation};
use domain::shared::ids::ActivityId;
use jobs::JobOutbox;
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::ip_throttle::{IpLimit, IpThrottle, TOO_MANY_FROM_ADDRESS};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send_mgm))
        .routes(routes!(send_mgp))
        .routes(routes!(member_get_members))
        .routes(routes!(invitation_unsubscribe))
}

/// Invitation e-mails per client address: as many as the sign-up calls allow
/// (`FILIA_SIGNUP_MAX_PER_IP` per `FILIA_SIGNUP_WINDOW_SECONDS`), counted apart from them.
/// The member's daily limit is the other bound.
#[derive(Debug)]
struct InviteSends;

impl IpLimit for InviteSends {
    const NAME: &'static str = "invite";
    const MESSAGE: &'static str = TOO_MANY_FROM_ADDRESS;
    fn limit(config: &Config) -> (u32, u64) {
        (config.signup_max_per_ip, config.signup_window_seconds)
    }
}

type InviteThrottle = IpThrottle<InviteSends>;

/// An address as the spec's screens may send it: the text, or `{ "email": "..." }`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
enum InviteAddress {
    Text(String),
    Object { email: String },
}

impl InviteAddress {
    fn into_text(self) -> String {
        match self {
            Self::Text(email) | Self::Object { email } => email,
        }
    }
}

/// The spec's payload. Only `emails` is used: the inviter, the station, the link and the
/// points are the session's member's own, whatever these say (`station_id`, when sent,
/// must be the caller's).
#[derive(Debug, Deserialize, ToSchema)]
struct MgmRequest {
    emails: Vec<InviteAddress>,
    #[serde(rename = "sender_name")]
    _sender_name: Option<serde_json::Value>,
    #[serde(rename = "link")]
    _link: Option<serde_json::Value>,
    #[serde(rename = "station_name")]
    _station_name: Option<serde_json::Value>,
    #[serde(rename = "points")]
    _points: Option<serde_json::Value>,
    station_id: Option<i64>,
}

/// As [`MgmRequest`], from a type 1 or 19 activity of the caller's station.
#[derive(Debug, Deserialize, ToSchema)]
struct MgpRequest {
    action_id: i64,
    emails: Vec<InviteAddress>,
    #[serde(rename = "sender_name")]
    _sender_name: Option<serde_json::Value>,
    #[serde(rename = "station_name")]
    _station_name: Option<serde_json::Value>,
    #[serde(rename = "points")]
    _points: Option<serde_json::Value>,
    station_id: Option<i64>,
}

/// What was sent. Which addresses were mailed is not said: an address that has an account
/// at the station or asked not to be mailed is taken like any other, and skipped.
#[derive(Debug, Serialize, ToSchema)]
struct InvitationSent {
    /// "Operação realizada com sucesso".
    message: String,
    /// The addresses taken: trimmed, lower-cased, each once.
    emails: Vec<String>,
    /// The member's invite link, `{station url}/cadastrar/{code}-U{userId}-E{stationId}`.
    link: String,
    /// The points the invitee earns by joining through it (the station's offer; 0 without).
    points: i32,
    /// Addresses the member may still invite today.
    remaining_today: i64,
}

const SENT: &str = "Operação realizada com sucesso";

fn own_station(member: Member, station_id: Option<i64>) -> ApiResult<()> {
    crate::member::own_scope(member, station_id, None)
}

async fn send(
    state: &AppState,
    member: Member,
    action_id: Option<i64>,
    emails: Vec<InviteAddress>,
) -> ApiResult<(StatusCode, Json<InvitationSent>)> {
    let emails: Vec<String> = emails.into_iter().map(InviteAddress::into_text).collect();
    let sent = app::activities::invitations::send(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        state.config.signing_key.expose_secret(),
        Invitation {
            user_id: member.user(),
            station_id: member.station(),
            action_id: action_id.map(ActivityId),
            emails: &emails,
        },
        Utc::now(),
    )
    .await?;
    tracing::info!(
        user_id = member.user_id,
        action_id,
        addresses = sent.emails.len(),
        "invitation sent"
    );
    Ok((
        StatusCode::CREATED,
        Json(InvitationSent {
            message: SENT.into(),
            emails: sent.emails,
            link: sent.link,
            points: sent.points,
            remaining_today: sent.remaining_today,
        }),
    ))
}

/// Mails the caller's invite link to up to five addresses
///
/// Each address is required and valid; more than five is 422 "Limite de contatos
/// alcançado". Each is mailed in the station's branding with the caller's invite link and
/// the points the station's offer gives the invitee, one `mail.send` job each, queued with
/// the invitation's record; an address with an account at the station, one that asked not
/// to be mailed or one the caller invited in the last 30 days is skipped. At most 20
/// addresses per member a day (of the station's time zone).
#[utoipa::path(
    post,
    path = "/send-html-to-mails-mgm",
    tag = "activities",
    security(("member" = [])),
    request_body = MgmRequest,
    responses(
        (status = 201, description = "Sent", body = InvitationSent),
        (status = 403, description = "`station_id` is not the caller's", body = Messages),
        (status = 422, description = "More than five addresses, one missing or invalid, or the daily limit", body = Messages),
        (status = 429, description = "Too many invitations from this address", body = Messages),
    )
)]
async fn send_mgm(
    _: InviteThrottle,
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<MgmRequest>,
) -> ApiResult<(StatusCode, Json<InvitationSent>)> {
    own_station(member, request.station_id)?;
    send(&state, member, None, request.emails).await
}

/// Mails the caller's invite link from an invitation activity (type 1 or 19)
///
/// As `POST /send-html-to-mails-mgm`, through the participation rules of the activity
/// (the caller's station's, published, of type 1 or 19, in its window, under its limit,
/// prerequisites done); sending records no participation.
#[utoipa::path(
    post,
    path = "/send-html-to-mails-mgp",
    tag = "activities",
    security(("member" = [])),
    request_body = MgpRequest,
    responses(
        (status = 201, description = "Sent", body = InvitationSent),
        (status = 403, description = "`station_id` is not the caller's", body = Messages),
        (status = 404, description = "Unknown, unpublished, another station's or not an invitation activity", body = ErrorMessage),
        (status = 422, description = "The addresses or the daily limit as for mgm; outside the window, a date missing, the limit reached or a prerequisite not done", body = Messages),
        (status = 429, description = "Too many invitations from this address", body = Messages),
    )
)]
async fn send_mgp(
    _: InviteThrottle,
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<MgpRequest>,
) -> ApiResult<(StatusCode, Json<InvitationSent>)> {
    own_station(member, request.station_id)?;
    send(&state, member, Some(request.action_id), request.emails).await
}

/// Who signed up through the caller's invite link
///
/// Newest first. `user_id` must be the caller's.
#[utoipa::path(
    get,
    path = "/member-get-members/{user_id}",
    tag = "activities",
    security(("member" = [])),
    params(("user_id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The invitations", body = [MemberInvitation]),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The user id is not the caller's", body = Messages),
    )
)]
async fn member_get_members(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<MemberInvitation>>> {
    if user_id != member.user_id {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    let invited = invitations::of_member(&state.db, member.user()).await?;
    Ok(Json(
        invited.into_iter().map(MemberInvitation::from).collect(),
    ))
}

/// Someone the member brought in through the invite link.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Invitee {
    pub id: i64,
    pub name: String,
}

/// One sign-up through the member's invite link (spec 001 "Invitation").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemberInvitation {
    /// The invitee's id.
    pub id: i64,
    pub invited: Invitee,
    /// When the invitee signed up.
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

impl From<invitations::MemberInvitation> for MemberInvitation {
    fn from(invitation: invitations::MemberInvitation) -> Self {
        Self {
            id: invitation.invitee_id.0,
            invited: Invitee {
                id: invitation.invitee_id.0,
                name: invitation.name,
            },
            created_at: invitation.created_at,
        }
    }
}

/// An invitation e-mail's unsubscribe link, as its page sends it.
#[derive(Debug, Deserialize, ToSchema)]
struct InvitationUnsubscribe {
    /// The station (`s`).
    station_id: i64,
    /// The address' SHA-256 in hex (`e`): the address itself is never in the link.
    address: String,
    /// The link's signature (`h`).
    hash: String,
}

/// Stops the station's invitations to the address of an invitation e-mail's link
///
/// No session: the signed link is the proof. Following it again changes nothing.
#[utoipa::path(
    post,
    path = "/invitation-unsubscribe",
    tag = "activities",
    request_body = InvitationUnsubscribe,
    responses(
        (status = 204, description = "The address gets no more invitations of the station"),
        (status = 422, description = "Link inválido.", body = Messages),
    )
)]
async fn invitation_unsubscribe(
    State(state): State<AppState>,
    Json(link): Json<InvitationUnsubscribe>,
) -> ApiResult<StatusCode> {
    let done = invitations::unsubscribe(
        &state.db,
        state.config.signing_key.expose_secret(),
        link.station_id,
        &link.address,
        &link.hash,
    )
    .await?;
    if !done {
        return Err(ApiError::invalid(invitations::UNSUBSCRIBE_LINK_INVALID));
    }
    Ok(StatusCode::NO_CONTENT)
}
