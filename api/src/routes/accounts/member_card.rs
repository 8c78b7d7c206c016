//! The virtual member card (`/homepage/carteirinha`): its data rides on `GET /users/{id}`
//! (`users.rs`), and its PDF is `GET /users/{id}/member-card/pdf`: 200 with the PDF made
//! from the card as it is now, or 202 with the job making it (followed at
//! `GET /api/jobs/{id}`, then asked again), like the shop's receipts. Only the caller's own
//! card, and only where the station shows member cards (404 elsewhere).

use app::accounts::member_card::{self, Pdf};
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use domain::accounts::member_card::{Card, MEMBER_CARD_NOT_FOUND};
use jobs::JobOutbox;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::Path;
use crate::member::{Member, NOT_AUTHORIZED};
use crate::member_throttle::{MemberLimit, throttle};
use crate::routes::commerce::documents::{Making, making, stream_pdf};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(member_card_pdf))
}

/// Asking for the card's PDF: each new version of the card is a render. A download is two
/// calls (ask, then fetch once made), so this leaves room for a few a minute.
struct MemberCardPdfLimit;

impl MemberLimit for MemberCardPdfLimit {
    const NAME: &'static str = "member-card-pdf";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (20, 600)
    }
}

/// What the member card shows, beside the user on `GET /users/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberCard {
    /// The member id, zero-padded to 8 digits.
    pub number: String,
    pub name: String,
    /// "000.000.000-00", when the member has a CPF.
    pub cpf: Option<String>,
    pub birthday: Option<NaiveDate>,
    /// The member's establishments, the first linked first.
    pub establishments: Vec<String>,
    /// The last day of the current month, in the station's time zone.
    pub valid_until: NaiveDate,
    /// What the QR code holds: the station's `/qr-code-user-validator/{id}` page.
    pub validator_link: String,
}

impl From<Card> for MemberCard {
    fn from(card: Card) -> Self {
        let domain::accounts::member_card::MemberCard {
            station_name: _,
            logo: _,
            user_id: _,
            number,
            name,
            cpf,
            birthday,
            establishments,
            valid_until,
            validator_link,
        } = card.data;
        Self {
            number,
            name,
            cpf,
            birthday,
            establishments,
            valid_until,
            validator_link,
        }
    }
}

/// The caller's member card, as a PDF
#[utoipa::path(
    get,
    path = "/users/{id}/member-card/pdf",
    tag = "accounts",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The member card", content_type = "application/pdf", body = Vec<u8>),
        (status = 202, description = "Being made: follow the job at /api/jobs/{job_id}, then ask again", body = Making),
        (status = 403, description = "the id is not the caller's", body = Messages),
        (status = 404, description = "The station shows no member card", body = ErrorMessage),
        (status = 429, description = "More than 20 PDFs asked for in 10 minutes", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn member_card_pdf(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    if id != member.user_id {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    throttle::<MemberCardPdfLimit>(&state, &member).await?;
    let pdf = member_card::pdf(&state.db, &JobOutbox, member.station(), member.user())
        .await?
        .ok_or_else(|| ApiError::not_found(MEMBER_CARD_NOT_FOUND))?;
    match pdf {
        Pdf::Stored(key) => {
            stream_pdf(
                &state,
                &key,
                &format!(
                    "carteirinha-{}.pdf",
                    domain::accounts::member_card::number(member.user_id)
                ),
            )
            .await
        }
        Pdf::Making(job_id) => Ok(making(job_id)),
    }
}
