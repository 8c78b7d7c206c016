//! The images and documents members upload to attach later: `POST /upload-image-to-s3` (a
//! base64 image, stored re-encoded and public) and `POST /files/actions` (a document, stored
//! privately). Both are typed by content and count against one per-member limit of calls
//! and one daily quota of bytes (`FILIA_UPLOAD_BYTES_PER_DAY`).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use domain::feed::uploads::{self, MAX_DOCUMENT_BYTES, Uploader};
use domain::infra::objects::Objects;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::error::{ApiResult, Messages};
use crate::extract::{Json, Multipart};
use crate::member::Member;
use crate::member_throttle::{MemberLimit, throttle};
use crate::state::AppState;
use crate::upload_form;

/// A base64 image of 1 MB is about 1.4 MB; larger bodies still get the spec's text.
const IMAGE_BODY_LIMIT: usize = 8 * 1024 * 1024;
/// A document's limit plus room for the multipart envelope.
const DOCUMENT_BODY_LIMIT: usize = MAX_DOCUMENT_BYTES + 64 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload_image).layer(DefaultBodyLimit::max(IMAGE_BODY_LIMIT)))
        .routes(routes!(upload_document).layer(DefaultBodyLimit::max(DOCUMENT_BODY_LIMIT)))
}

/// Images and documents: 30 per hour per member.
struct Attachments;

impl MemberLimit for Attachments {
    const NAME: &'static str = "feed-attachments";
    fn limit(_: &domain::Config) -> (u32, u64) {
        (30, 3600)
    }
}

/// The member's uploads of the rolling day may hold up to `FILIA_UPLOAD_BYTES_PER_DAY`.
fn uploader(state: &AppState, member: &Member) -> Uploader {
    Uploader {
        station_id: member.station(),
        user_id: member.user(),
        quota_bytes: state.config.upload_bytes_per_day,
    }
}

/// The multipart form of an upload: the file in `file`.
#[allow(dead_code)]
#[derive(ToSchema)]
pub(super) struct FileForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

#[derive(Debug, Deserialize, ToSchema)]
struct StoredImageUpload {
    /// A JPEG, PNG or GIF of at most 1 MB, with or without a `data:` prefix.
    base64: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct UploadedImage {
    /// Where the stored image is served.
    url: String,
}

/// Stores an image
///
/// JPEG, PNG or GIF by content, at most 1 MB decoded; stored re-encoded (metadata
/// dropped, at most 1600 px a side) and served publicly at `url`, which a file answer
/// (`PUT /research/{id}/answers/{question_id}/file`) attaches; unattached, it is deleted a
/// day later.
#[utoipa::path(
    post,
    path = "/upload-image-to-s3",
    tag = "feed",
    security(("member" = [])),
    request_body = StoredImageUpload,
    responses(
        (status = 201, description = "Stored", body = UploadedImage),
        (status = 422, description = "Over 1 MB ('Erro: Imagem maior que 1MB'), or not a JPEG, PNG or GIF ('Tamanho ou formato inválido')", body = Messages),
        (status = 429, description = "Over 30 images and documents in an hour; or the member's images and documents of the last 24 hours would pass FILIA_UPLOAD_BYTES_PER_DAY (50 MB): 'Você atingiu o limite de 50 MB de arquivos enviados em 24 horas. Aguarde e tente novamente mais tarde.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn upload_image(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<StoredImageUpload>,
) -> ApiResult<(StatusCode, Json<UploadedImage>)> {
    throttle::<Attachments>(&state, &member).await?;
    let key = app::feed::uploads::store_image(
        &state.db,
        &state.objects,
        &media::images::ImageCrate,
        &jobs::JobOutbox,
        uploader(&state, &member),
        request.base64,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(UploadedImage {
            url: Objects::url(&key),
        }),
    ))
}

/// The spec's uploaded file.
#[derive(Debug, Serialize, ToSchema)]
struct UploadedFile {
    original_name: String,
    /// The stored document's key (private: never served by the public media route).
    path: String,
}

/// Stores a document
///
/// Multipart, the file in `file`: a pdf, doc, docx, zip or an image (JPEG, PNG, GIF) by
/// content, at most 10 MB. Stored privately; `path` is its key, which a file answer
/// (`PUT /research/{id}/answers/{question_id}/file`) attaches; unattached, it is deleted a
/// day later.
#[utoipa::path(
    post,
    path = "/files/actions",
    tag = "feed",
    security(("member" = [])),
    request_body(content = FileForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Stored", body = UploadedFile),
        (status = 422, description = "Too large, empty or not of those kinds ('Tamanho ou formato inválido'); a broken transfer ('Erro no upload')", body = Messages),
        (status = 429, description = "Over 30 images and documents in an hour; or the member's images and documents of the last 24 hours would pass FILIA_UPLOAD_BYTES_PER_DAY (50 MB): 'Você atingiu o limite de 50 MB de arquivos enviados em 24 horas. Aguarde e tente novamente mais tarde.'", body = Messages,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn upload_document(
    State(state): State<AppState>,
    member: Member,
    Multipart(multipart): Multipart,
) -> ApiResult<(StatusCode, Json<UploadedFile>)> {
    throttle::<Attachments>(&state, &member).await?;
    let (bytes, name) = upload_form::read_file(multipart, MAX_DOCUMENT_BYTES).await?;
    let stored = uploads::store_document(
        &state.db,
        &state.objects,
        uploader(&state, &member),
        &name,
        bytes,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(UploadedFile {
            original_name: stored.original_name,
            path: stored.key,
        }),
    ))
}
