//! `GET /political` and `POST /political` (spec 002 "Political"; docs/api-services.md
//! "Political"): the station's 'Temas de interesse' and 'Sugerir tema'. Only where the
//! station offers the political desk (`political_access`; 404 elsewhere).

use axum::extract::State;
use axum::http::StatusCode;
use domain::political::{self, Highlight, ThemeProcess, UnionAction};
use domain::services::{self, Desk, REQUEST_SENT};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Json;
use crate::member::Member;
use crate::routes::services::ServiceRequestCreated;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(themes, suggest))
}

/// One of a theme's highlights: a point and the union's position on it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoliticalHighlight {
    pub descricao_item: String,
    pub posicionamento: String,
}

/// Something the union did about a theme.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoliticalAction {
    /// When (`2026-10-14`).
    pub data_acao: String,
    pub descricao_acao: String,
}

/// A case the theme is argued in.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoliticalProcess {
    pub identificacao_processo: String,
    #[serde(rename = "tribunalOrgao")]
    pub court: String,
}

/// A theme of interest ('Temas de interesse').
#[derive(Debug, Serialize, ToSchema)]
pub struct PoliticalTheme {
    pub id: i64,
    /// Its kind ("Projeto de lei", "Negociação coletiva").
    pub tipo_tema: String,
    pub titulo: String,
    pub descricao: String,
    /// Who it concerns.
    pub interessados: Vec<String>,
    pub itens_destaque: Vec<PoliticalHighlight>,
    /// The union's actions about it.
    pub acoes_sindicato: Vec<PoliticalAction>,
    pub processos: Vec<PoliticalProcess>,
}

impl From<political::Theme> for PoliticalTheme {
    fn from(theme: political::Theme) -> Self {
        let political::Theme {
            id,
            kind,
            title,
            description,
            interested,
            highlights,
            actions,
            processes,
        } = theme;
        Self {
            id,
            tipo_tema: kind,
            titulo: title,
            descricao: description,
            interessados: interested,
            itens_destaque: highlights
                .0
                .into_iter()
                .map(
                    |Highlight {
                         descricao_item,
                         posicionamento,
                     }| PoliticalHighlight {
                        descricao_item,
                        posicionamento,
                    },
                )
                .collect(),
            acoes_sindicato: actions
                .0
                .into_iter()
                .map(
                    |UnionAction {
                         data_acao,
                         descricao_acao,
                     }| PoliticalAction {
                        data_acao,
                        descricao_acao,
                    },
                )
                .collect(),
            processos: processes
                .0
                .into_iter()
                .map(
                    |ThemeProcess {
                         identificacao_processo,
                         court,
                     }| PoliticalProcess {
                        identificacao_processo,
                        court,
                    },
                )
                .collect(),
        }
    }
}

/// 'Sugerir tema'.
#[derive(Debug, Deserialize, ToSchema)]
struct SuggestionRequest {
    /// Required, at most 1000 characters.
    #[serde(default)]
    description: Option<String>,
}

/// The station's political themes
///
/// Its published themes, in the desk's order.
#[utoipa::path(
    get,
    path = "/political",
    tag = "political",
    security(("member" = [])),
    responses(
        (status = 200, description = "The published themes", body = [PoliticalTheme]),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "The station does not offer the political desk: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn themes(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<PoliticalTheme>>> {
    services::offered(&state.db, member.station(), Desk::Political).await?;
    let found = political::themes(&state.db, member.station()).await?;
    Ok(Json(found.into_iter().map(PoliticalTheme::from).collect()))
}

/// Suggests a theme
///
/// Stored for the political desk, e-mailed to its address (when it has none, the console
/// alone has it) and acknowledged to the member's e-mail. 5 suggestions an hour per member.
#[utoipa::path(
    post,
    path = "/political",
    tag = "political",
    security(("member" = [])),
    request_body = SuggestionRequest,
    responses(
        (status = 201, description = "Stored, its e-mails queued: 'Solicitação enviada com sucesso.'", body = ServiceRequestCreated),
        (status = 400, description = "The body cannot be read", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
        (status = 404, description = "The station does not offer the political desk: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 422, description = "'description: Esse campo é obrigatório' or 'description: Máximo de 1000 caracteres'", body = Messages),
        (status = 429, description = "5 suggestions in the last hour: 'Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn suggest(
    State(state): State<AppState>,
    member: Member,
    Json(form): Json<SuggestionRequest>,
) -> ApiResult<(StatusCode, Json<ServiceRequestCreated>)> {
    let suggestion = app::political::suggest(
        &state.db,
        &JobOutbox,
        &state.config.public_url,
        member.station(),
        member.user(),
        form.description.as_deref(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(ServiceRequestCreated {
            id: suggestion.id,
            message: REQUEST_SENT,
        }),
    ))
}
