//! `POST /enviar-suporte`: a visitor's or a member's support message (docs/api-support.md).
//! Public, so every post is counted per client address before any work (the extractor);
//! the allowances of the member, the sender's e-mail address and the station are the use
//! case's (`app::support::send`), counted once the form is valid and the captcha passed.

use app::support::Sender;
use axum::extract::State;
use axum::http::StatusCode;
use domain::Config;
use domain::shared::ids::{StationId, UserId};
use domain::support::Form;
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::client_ip::ClientIp;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::ip_throttle::{IpLimit, IpThrottle};
use crate::member::{NOT_AUTHORIZED, SignedIn};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_support))
}

use domain::support::TOO_MANY_MESSAGES;
/// A visitor's form names no station.
pub const STATION_REQUIRED: &str = "station_id: Esse campo é obrigatório";

/// Per client address: 10 an hour (a family or an office behind one address).
#[derive(Debug)]
struct SupportSends;

impl IpLimit for SupportSends {
    const NAME: &'static str = "support";
    const MESSAGE: &'static str = TOO_MANY_MESSAGES;
    fn limit(_: &Config) -> (u32, u64) {
        (10, 3600)
    }
}

/// The spec's payload (spec 002 section 7).
#[derive(Debug, Deserialize, ToSchema)]
struct SupportRequest {
    /// Required, at most 200 characters.
    #[serde(default)]
    subject: Option<String>,
    /// Required, at most 600 characters.
    #[serde(default)]
    message: Option<String>,
    /// The captcha widget's token (required when the captcha is on).
    #[serde(default)]
    captcha: Option<String>,
    /// Required for a visitor; a member's must be their own (the session's is used).
    #[serde(default)]
    station_id: Option<i64>,
    /// A member's must be their own (the session's is used); a visitor sends none.
    #[serde(default)]
    user_id: Option<i64>,
    /// Required, at most 120 characters.
    #[serde(default)]
    name: Option<String>,
    /// Optional: 10 to 13 digits, masked or not; stored as digits.
    #[serde(default)]
    phone: Option<String>,
    /// Required, a valid address.
    #[serde(default)]
    email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
struct SupportSent {
    /// The stored message's id.
    id: i64,
    /// "Operação realizada com sucesso".
    #[schema(value_type = String)]
    message: &'static str,
}

const SENT: &str = "Operação realizada com sucesso";

/// The station and member a message is from: a signed-in caller's own (another member's
/// `user_id` or another station's `station_id` refused), else the visitor's station.
fn sender_of(
    signed_in: Option<&SignedIn>,
    form: &SupportRequest,
    ip: Option<std::net::IpAddr>,
) -> ApiResult<Sender> {
    match signed_in {
        Some(signed_in) => {
            let user = &signed_in.user;
            let others_user = form.user_id.is_some_and(|id| id != user.user_id.0);
            let others_station = form.station_id.is_some_and(|id| id != user.station_id.0);
            if others_user || others_station {
                return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
            }
            Ok(Sender {
                station_id: user.station_id,
                user_id: Some(user.user_id),
                ip,
            })
        }
        // Only a session proves who a member is.
        None if form.user_id.is_some() => Err(ApiError::Forbidden(NOT_AUTHORIZED.into())),
        None => Ok(Sender {
            station_id: StationId(
                form.station_id
                    .ok_or_else(|| ApiError::invalid(STATION_REQUIRED))?,
            ),
            user_id: None::<UserId>,
            ip,
        }),
    }
}

/// Sends a support message ('Fale conosco')
///
/// Stored for the station's staff (the console's `/ops/support-messages`), e-mailed to the
/// station's contact address (when it has none, the console alone has it) and acknowledged
/// to the sender's e-mail. A signed-in member's message is theirs whatever the body says.
/// Throttled per client address (10 posts an hour, valid or not); once the form is valid
/// and the captcha passed, per member (5 messages an hour), per e-mail address (5 an hour)
/// and per station (`FILIA_SUPPORT_MAX_PER_STATION`, 30 an hour).
#[utoipa::path(
    post,
    path = "/enviar-suporte",
    tag = "support",
    security((), ("session" = [])),
    request_body = SupportRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued", body = SupportSent),
        (status = 400, description = "The body cannot be read", body = Messages),
        (status = 403, description = "Another member's user_id, another station's station_id, or a user_id without a session: 'Você não possui autorização para acessar esta página.'", body = Messages),
        (status = 404, description = "No such station: 'Estação não encontrada'", body = ErrorMessage),
        (status = 422, description = "One 'field: message' per broken rule ('name: Esse campo é obrigatório', 'email: Email inválido', 'phone: Telefone inválido', 'subject: Esse campo deve possuir no máximo 200 caracteres', 'message: Esse campo deve possuir no máximo 600 caracteres', 'station_id: Esse campo é obrigatório'), or the captcha failed ('Verificação de segurança inválida. Tente novamente.')", body = Messages),
        (status = 429, description = "Too many messages from this client address, member or e-mail, or to this station: 'Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn send_support(
    _: IpThrottle<SupportSends>,
    State(state): State<AppState>,
    signed_in: Option<SignedIn>,
    ClientIp(ip): ClientIp,
    Json(form): Json<SupportRequest>,
) -> ApiResult<(StatusCode, Json<SupportSent>)> {
    let sender = sender_of(signed_in.as_ref(), &form, ip)?;
    let message = app::support::send(
        &state.db,
        &JobOutbox,
        &*state.captcha,
        app::support::Settings::from_config(&state.config),
        sender,
        &Form {
            name: form.name.as_deref(),
            email: form.email.as_deref(),
            phone: form.phone.as_deref(),
            subject: form.subject.as_deref(),
            message: form.message.as_deref(),
        },
        form.captcha.as_deref(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(SupportSent {
            id: message.id,
            message: SENT,
        }),
    ))
}
