//! `GET /transparency`: the station's transparency documents ('Prestação de contas').

use axum::extract::State;
use domain::content::transparency;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, Messages};
use crate::extract::Query;
use crate::member::Member;
use crate::paging::{self, PageQuery, Paged};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(transparency_documents))
}

/// A document's file.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Attachment {
    /// The file's URL (`/api/media/...`).
    pub url: String,
    pub content_type: String,
}

/// A transparency document.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TransparencyDocument {
    pub id: i64,
    pub nome: String,
    /// The part of `nome` after its last hyphen or slash, the group it is shown in; null
    /// when the name has none.
    pub year: Option<String>,
    pub anexo: Attachment,
}

impl From<transparency::Document> for TransparencyDocument {
    fn from(document: transparency::Document) -> Self {
        let transparency::Document {
            id,
            nome,
            year,
            url,
            content_type,
        } = document;
        Self {
            id,
            nome,
            year,
            anexo: Attachment { url, content_type },
        }
    }
}

/// The station's transparency documents
///
/// The caller's station's published documents, newest year first (those without a year
/// last), by name within a year. `limit` and `offset` page the list (the first 500
/// without `limit`); `X-Total-Count` is the size of the whole list.
#[utoipa::path(
    get,
    path = "/transparency",
    tag = "content",
    security(("member" = [])),
    params(
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 100, description = "At most this many (1 to 100); absent, the first 500"),
        ("offset" = Option<i64>, Query, minimum = 0, description = "Skip this many first (0 by default)"),
    ),
    responses(
        (status = 200, description = "The documents", body = [TransparencyDocument],
            headers(("X-Total-Count" = i64, description = "How many documents the whole list holds"))),
        (status = 400, description = "`limit` or `offset` is not a number or out of range", body = Messages),
        (status = 401, description = "Not signed in", body = Messages),
    )
)]
async fn transparency_documents(
    State(state): State<AppState>,
    member: Member,
    Query(page): Query<PageQuery>,
) -> ApiResult<Paged<TransparencyDocument>> {
    let page = paging::page(page)?;
    let listed = transparency::list(&state.db, member.station(), page).await?;
    Ok(Paged::from(listed))
}
