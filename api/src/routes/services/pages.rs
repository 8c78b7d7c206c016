//! `GET /services/{desk}` (docs/api-services.md "Desk pages"): what a desk's pages show
//! ('contato', 'orientacoes', 'informacoes', the video playlists).

use axum::extract::State;
use domain::services::pages::{self, Contact, Page, Playlist};
use domain::services::{Desk, SERVICE_UNAVAILABLE};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(service_page))
}

/// One person of the 'contato' page.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceContact {
    pub name: String,
    pub role: String,
    pub email: String,
    pub phone: String,
}

/// One video page: an https embed address.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServicePlaylist {
    /// `videos`, `cafe-com-politica` or `transforma`.
    pub slug: String,
    pub title: String,
    pub url: String,
}

/// What a desk's pages show.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServicePage {
    /// `legal`, `accounting`, `health` or `political`.
    pub desk: String,
    /// The 'contato' page.
    pub contatos: Vec<ServiceContact>,
    /// The 'orientacoes' page: plain text, paragraphs split by blank lines.
    pub orientacoes: String,
    /// The 'informacoes' page: plain text, paragraphs split by blank lines.
    pub informacoes: String,
    pub playlists: Vec<ServicePlaylist>,
    /// The landing's carousel: an activity category of the station (read with
    /// `participant-categories?where[id]=`), or null when the desk shows none.
    pub categoria: Option<i64>,
}

impl From<Page> for ServicePage {
    fn from(page: Page) -> Self {
        Self {
            desk: page.desk.as_str().to_string(),
            contatos: page
                .contacts
                .into_iter()
                .map(
                    |Contact {
                         name,
                         role,
                         email,
                         phone,
                     }| ServiceContact {
                        name,
                        role,
                        email,
                        phone,
                    },
                )
                .collect(),
            orientacoes: page.guidance,
            informacoes: page.information,
            playlists: page
                .playlists
                .into_iter()
                .map(|Playlist { slug, title, url }| ServicePlaylist { slug, title, url })
                .collect(),
            categoria: page.category_id,
        }
    }
}

/// A desk's pages
///
/// The contacts, guidance, information and video playlists of the desk in the member's
/// station; a desk the station never filled in answers empty lists and texts.
#[utoipa::path(
    get,
    path = "/services/{desk}",
    tag = "services",
    security(("member" = [])),
    params(("desk" = String, Path, description = "`legal`, `accounting`, `health` or `political`")),
    responses(
        (status = 200, description = "The desk's pages", body = ServicePage),
        (status = 404, description = "Not a desk, or one the station does not offer: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn service_page(
    State(state): State<AppState>,
    member: Member,
    Path(desk): Path<String>,
) -> ApiResult<Json<ServicePage>> {
    let desk = Desk::parse(&desk).ok_or_else(|| ApiError::not_found(SERVICE_UNAVAILABLE))?;
    let mut conn = state.db.acquire().await?;
    let page = pages::page(&mut conn, member.station(), desk).await?;
    Ok(Json(ServicePage::from(page)))
}
