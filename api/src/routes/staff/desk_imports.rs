//! A desk's CSV imports in the console (docs/api-services.md "The desk in the console",
//! Imports): staff of a legal, accounting or health desk send the file their office
//! exported (cases or appointments); the `services.import` job imports it, and the console
//! follows its progress, counts and rejected rows.

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::services::imports::{
    self, FILE_REQUIRED, FILE_TOO_LARGE, IMPORT_NOT_FOUND, MAX_BYTES, ServiceImport as Stored,
};
use domain::services::{self, Desk};
use domain::shared::ids::StationId;
use jobs::JobOutbox;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::desk::open_desk;
use crate::desk_staff::DeskStaff;
use crate::error::{ApiError, ErrorMessage, Messages};
use crate::extract::{Json, Multipart, Path};
use crate::staff::OpsResult;
use crate::state::AppState;
use crate::upload_form;

/// The file's limit plus room for the multipart envelope and the `kind` part.
const BODY_LIMIT: usize = MAX_BYTES + 64 * 1024;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_import, list_imports).layer(DefaultBodyLimit::max(BODY_LIMIT)))
        .routes(routes!(get_import))
}

/// A row the import refused.
#[derive(Debug, Serialize, ToSchema)]
struct RejectedRow {
    /// The line in the file (the header is line 1).
    line: u32,
    message: String,
}

/// One import of a desk.
#[derive(Debug, Serialize, ToSchema)]
struct ServiceImport {
    id: i64,
    station_id: i64,
    /// `legal`, `accounting` or `health`.
    desk: String,
    /// `cases` or `appointments`.
    kind: String,
    file_name: String,
    /// `queued`, `running`, `done` or `failed`.
    status: String,
    total_rows: i32,
    processed_rows: i32,
    inserted: i32,
    updated: i32,
    unchanged: i32,
    rejected: Vec<RejectedRow>,
    /// Why it failed, when it did.
    failure: Option<String>,
    job_id: Option<String>,
    created_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
}

impl From<Stored> for ServiceImport {
    fn from(row: Stored) -> Self {
        Self {
            id: row.id,
            station_id: row.station_id,
            desk: row.desk.as_str().to_string(),
            kind: match row.kind {
                domain::services::imports::ImportKind::Cases => "cases".into(),
                domain::services::imports::ImportKind::Appointments => "appointments".into(),
            },
            file_name: row.file_name,
            status: row.status,
            total_rows: row.total_rows,
            processed_rows: row.processed_rows,
            inserted: row.inserted,
            updated: row.updated,
            unchanged: row.unchanged,
            rejected: row
                .rejected
                .0
                .into_iter()
                .map(|r| RejectedRow {
                    line: r.line,
                    message: r.message,
                })
                .collect(),
            failure: row.failure,
            job_id: row.job_id,
            created_at: row.created_at,
            finished_at: row.finished_at,
        }
    }
}

/// The answer to a file sent: the import and the job that runs it.
#[derive(Debug, Serialize, ToSchema)]
struct ImportQueued {
    import: ServiceImport,
    job_id: String,
}

/// The multipart form of an import.
#[allow(dead_code)]
#[derive(ToSchema)]
struct ImportForm {
    /// `cases` or `appointments`.
    kind: String,
    /// The CSV, at most 2 MB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// The desk's list shows this many imports.
const LISTED: i64 = 20;

/// Reads the form's `kind` and `file` (its bytes, at most [`MAX_BYTES`], and its name).
async fn read_form(
    mut multipart: axum::extract::Multipart,
) -> OpsResult<(String, Option<(Vec<u8>, String)>)> {
    let mut kind = String::new();
    let mut file = None;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(err) => return Err(too_large_or_broken(&err).into()),
        };
        match field.name() {
            Some("kind") => {
                kind = field
                    .text()
                    .await
                    .map_err(|err| too_large_or_broken(&err))?;
            }
            Some("file") => {
                let name = field.file_name().unwrap_or("importacao.csv").to_string();
                let mut field = field;
                let mut bytes = Vec::new();
                while let Some(chunk) = field
                    .chunk()
                    .await
                    .map_err(|err| too_large_or_broken(&err))?
                {
                    if bytes.len() + chunk.len() > MAX_BYTES {
                        return Err(ApiError::invalid(FILE_TOO_LARGE).into());
                    }
                    bytes.extend_from_slice(&chunk);
                }
                file = Some((bytes, name));
            }
            _ => {}
        }
    }
    Ok((kind, file))
}

fn too_large_or_broken(err: &axum::extract::multipart::MultipartError) -> ApiError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::invalid(FILE_TOO_LARGE)
    } else {
        ApiError::invalid(upload_form::broken(err))
    }
}

/// Sends a desk's CSV to import
///
/// Multipart: `kind` (`cases` or `appointments`; health imports appointments only) and
/// `file`, a CSV of at most 2 MB, UTF-8 text, `;` or `,` separated, its first line the
/// header (cases: `cpf;numero_processo;tipo;situacao;data_protocolo;tribunal_orgao;titulo;valor_causa;link_processo;coletiva`,
/// appointments: `referencia;cpf;servico;data;hora;situacao;escritorio;descricao`). The
/// `services.import` job imports it; rows are keyed by the office's own reference, so the
/// same file again changes nothing. Desk staff who act on the desk (support staff of the
/// station too).
#[utoipa::path(
    post,
    path = "/stations/{id}/desk/{desk}/imports",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal`, `accounting` or `health`"),
    ),
    request_body(content = ImportForm, content_type = "multipart/form-data"),
    responses(
        (status = 202, description = "Stored and queued", body = ImportQueued),
        (status = 400, description = "The id is not a number, or the form cannot be read", body = Messages),
        (status = 403, description = "Not desk staff, another desk of the station, or a viewer (reads only)", body = ErrorMessage),
        (status = 404, description = "A station out of reach: 'Estação não encontrada'; an unknown desk, or one the station does not offer: 'Serviço não disponível.'", body = ErrorMessage),
        (status = 409, description = "The same file is still being imported", body = ErrorMessage),
        (status = 415, description = "Not a multipart form", body = Messages),
        (status = 422, description = "A bad kind ('kind: ...'), no file, too large, not UTF-8 text, no header or no rows ('file: ...')", body = Messages),
    )
)]
async fn create_import(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
    Multipart(multipart): Multipart,
) -> OpsResult<(StatusCode, Json<ImportQueued>)> {
    let desk = open_desk(
        &state,
        &staff,
        station_id,
        &desk,
        &Desk::WITH_APPOINTMENTS,
        true,
    )
    .await?;
    let (kind, file) = read_form(multipart).await?;
    let Some((bytes, file_name)) = file else {
        return Err(ApiError::invalid(FILE_REQUIRED).into());
    };
    let stored = app::services::imports::start(
        &state.db,
        &JobOutbox,
        app::services::imports::Sent {
            station_id,
            desk,
            kind: &kind,
            file_name: &file_name,
            bytes: &bytes,
            user_id: staff.user_id(),
        },
    )
    .await?;
    let job_id = stored.job_id.clone().unwrap_or_default();
    Ok((
        StatusCode::ACCEPTED,
        Json(ImportQueued {
            import: stored.into(),
            job_id,
        }),
    ))
}

/// A desk's imports, newest first (the latest 20)
#[utoipa::path(
    get,
    path = "/stations/{id}/desk/{desk}/imports",
    tag = "staff",
    security(("staff" = [])),
    params(
        ("id" = i64, Path, description = "The station id"),
        ("desk" = String, Path, description = "`legal`, `accounting` or `health`"),
    ),
    responses(
        (status = 200, description = "The imports", body = [ServiceImport]),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff, or another desk of the station", body = ErrorMessage),
        (status = 404, description = "A station out of reach: 'Estação não encontrada'; an unknown desk, or one the station does not offer: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn list_imports(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path((station_id, desk)): Path<(i64, String)>,
) -> OpsResult<Json<Vec<ServiceImport>>> {
    let desk = open_desk(
        &state,
        &staff,
        station_id,
        &desk,
        &Desk::WITH_APPOINTMENTS,
        false,
    )
    .await?;
    let imports = imports::list(&state.db, station_id, desk, LISTED)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(imports.into_iter().map(Into::into).collect()))
}

/// One import: its status, progress, counts and rejected rows
///
/// Polled by the console while `queued` or `running`.
#[utoipa::path(
    get,
    path = "/desk/imports/{id}",
    tag = "staff",
    security(("staff" = [])),
    params(("id" = i64, Path, description = "The import's id")),
    responses(
        (status = 200, description = "The import", body = ServiceImport),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "Not desk staff", body = ErrorMessage),
        (status = 404, description = "No such import on a desk the caller reaches: 'Importação não encontrada.'; a desk the station has turned off: 'Serviço não disponível.'", body = ErrorMessage),
    )
)]
async fn get_import(
    State(state): State<AppState>,
    staff: DeskStaff,
    Path(import_id): Path<i64>,
) -> OpsResult<Json<ServiceImport>> {
    let Some(import) = imports::find(&state.db, import_id)
        .await
        .map_err(ApiError::from)?
        .filter(|import| staff.0.allows(import.station_id, import.desk, false))
    else {
        return Err(ApiError::not_found(IMPORT_NOT_FOUND).into());
    };
    // A desk the station has turned off shows none of its records, as its routes do.
    services::offered(&state.db, StationId(import.station_id), import.desk).await?;
    Ok(Json(import.into()))
}
