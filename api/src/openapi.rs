//! The API contract: an OpenAPI 3.1 document built from the route definitions. Every `/api`
//! handler carries `#[utoipa::path]` and is mounted with `routes!` (see `crate::routes`), so
//! the document lists exactly the routes the router answers. It is served at
//! `GET /api/openapi.json`, printed by `api openapi`, and committed as `docs/openapi.json`
//! (a test fails when the committed file is stale); the web app's API types come from it.

use std::sync::LazyLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi as _};
use utoipa_axum::router::OpenApiRouter;

use crate::error::{ErrorMessage, INTERNAL_ERROR, Messages};
use crate::state::AppState;

/// The security scheme of routes that need `Authorization: Bearer <token>`.
pub const BEARER: &str = "bearer";

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Filia API",
        description = "Filia's HTTP API. Every error answers `{\"messages\": [...]}` (what the member can fix) or `{\"error\": \"...\"}`, in Portuguese; every answer carries `x-request-id`."
    ),
    components(schemas(Messages, ErrorMessage)),
    modifiers(&BearerAuth),
    tags(
        (name = "stations", description = "Stations, branding and host resolution"),
        (name = "accounts", description = "Sign-up, activation, login and sessions, password recovery, profile, member card, mailing list, member-get-member"),
        (name = "wallet", description = "Balance, statement and credits"),
        (name = "engagement", description = "Sharing"),
        (name = "jobs", description = "The state of a job the member owns"),
        (name = "staff", description = "The support console (staff with a grant)"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut OpenApi) {
        let mut http = Http::new(HttpAuthScheme::Bearer);
        http.description =
            Some("The opaque session token a login or sign-up answered (`token`).".to_string());
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(BEARER, SecurityScheme::Http(http));
    }
}

/// The whole document, paths under `/api`.
pub fn document() -> OpenApi {
    let mut doc = OpenApiRouter::<AppState>::with_openapi(ApiDoc::openapi())
        .nest("/api", crate::routes::api())
        .into_openapi();
    // utoipa fills the licence from Cargo.toml, which names none: no empty object.
    doc.info.license = None;
    doc.paths.paths = std::mem::take(&mut doc.paths.paths)
        .into_iter()
        .map(|(path, item)| (openapi_template(&path), item))
        .collect();
    for item in doc.paths.paths.values_mut() {
        for operation in operations(item) {
            add_shared_answers(operation);
        }
    }
    doc
}

/// The document as committed in `docs/openapi.json`: pretty, keys in a stable order.
pub fn pretty_json() -> String {
    let mut json = document()
        .to_pretty_json()
        .unwrap_or_else(|err| unreachable!("the contract always serialises: {err}"));
    json.push('\n');
    json
}

/// This document
#[utoipa::path(
    get,
    path = "/openapi.json",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json", body = Object))
)]
pub async fn contract() -> impl IntoResponse {
    // Built once: it only changes with the code.
    static JSON: LazyLock<String> = LazyLock::new(pretty_json);
    ([(CONTENT_TYPE, "application/json")], JSON.as_str())
}

/// axum writes a wildcard segment `{*key}`; OpenAPI knows only `{key}`.
fn openapi_template(path: &str) -> String {
    path.replace("{*", "{")
}

fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .filter_map(Option::as_mut)
}

/// The answers the extractors and the error type give on every route, so each handler's
/// attribute lists only its own: 500 anywhere, and for a JSON body 400 (unreadable),
/// 413 (too large), 415 (not JSON) and 422 (a field missing or of the wrong type).
fn add_shared_answers(operation: &mut Operation) {
    let answers = &mut operation.responses.responses;
    if operation.request_body.is_some() {
        answers
            .entry("400".into())
            .or_insert_with(|| envelope("The body is not valid JSON", "Messages"));
        answers.entry("413".into()).or_insert_with(|| {
            envelope("The body is larger than the route accepts", "ErrorMessage")
        });
        answers
            .entry("415".into())
            .or_insert_with(|| envelope("The body is not `application/json`", "Messages"));
        const FIELD: &str = "A field is missing or has the wrong type";
        match answers.get_mut("422") {
            Some(RefOr::T(response)) => {
                response.description = format!("{}; or: {FIELD}", response.description);
            }
            Some(RefOr::Ref(_)) => {}
            None => {
                answers.insert("422".into(), envelope(FIELD, "Messages"));
            }
        }
    }
    answers.entry("500".into()).or_insert_with(|| {
        envelope(
            &format!("Internal error (always \"{INTERNAL_ERROR}\"; the cause is logged)"),
            "ErrorMessage",
        )
    });
}

fn envelope(description: &str, schema: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            Content::new(Some(Ref::from_schema_name(schema))),
        )
        .build()
        .into()
}
