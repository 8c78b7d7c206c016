//! The API contract: an OpenAPI 3.1 document built from the route definitions. Every `/api`
//! handler carries `#[utoipa::path]` and is mounted with `routes!` (see `crate::routes`), so
//! the document lists exactly the routes the router answers. It is served at
//! `GET /api/openapi.json`, printed by `api openapi`, and committed as `docs/openapi.json`
//! (a test fails when the committed file is stale); the web app's API types come from it.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use domain::infra::uploads::UPLOAD_FAILED;
use serde_json::Value;
use utoipa::openapi::path::{Operation, ParameterIn, PathItem};
use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi as _};
use utoipa_axum::router::OpenApiRouter;

use crate::error::{ErrorMessage, INTERNAL_ERROR, Messages};
use crate::extract::BAD_PARAMETER;
use crate::state::AppState;

/// The security schemes: each is `Authorization: Bearer <token>` checked by one extractor,
/// named for who passes it, so a route's `security(...)` says which answers its guard gives
/// (added to every such route by [`add_guard_answers`], not written on each).
/// [`crate::member::Member`]: an activated member in good standing.
pub const MEMBER: &str = "member";
/// [`crate::member::SignedIn`]: any live session.
pub const SESSION: &str = "session";
/// [`crate::staff::Staff`]: staff with a console grant.
pub const STAFF: &str = "staff";
/// A single-use login token (`POST /auth/login-token/issue`), redeemed for a session.
pub const LOGIN_TOKEN: &str = "login_token";

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
        (name = "activities", description = "The activities catalogue: activities, search, journeys, now playing, categories, public activities, feedback animations, taking part, and sharing"),
        (name = "calendar", description = "The station calendar: its published schedules (events)"),
        (name = "commerce", description = "The shop: products, the cart, the hold, coupons, orders"),
        (name = "content", description = "A station's content: news, downloads (public and private files), transparency documents"),
        (name = "feed", description = "The wall feed: posts, likes, comments on posts and activities, reports, and the uploads behind them"),
        (name = "fuel", description = "The fuel campaign: the station's open campaigns, the member's fuel vouchers, taking one"),
        (name = "political", description = "The political-union page: the station's themes of interest, a member's theme suggestion"),
        (name = "subscriptions", description = "Plans and subscriptions: the station's plans, the member's plan (buy, change, cancel, its card), charges, type 21 product subscriptions, the enterprise plan form"),
        (name = "services", description = "Member services: the desks' pages, legal and accounting cases and appointments, health appointment requests"),
        (name = "support", description = "The contact form ('Fale conosco'): support messages to the station"),
        (name = "jobs", description = "The state of a job the member owns"),
        (name = "media", description = "Stored files: pictures, videos, feedback animations"),
        (name = "staff", description = "The support console (staff with a grant)"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for (name, who) in [
            (
                MEMBER,
                "of an activated member whose access is not suspended",
            ),
            (SESSION, "of any live session"),
            (STAFF, "of a staff member with a console grant"),
        ] {
            let mut http = Http::new(HttpAuthScheme::Bearer);
            http.description = Some(format!(
                "The opaque session token a login or sign-up answered (`token`), {who}."
            ));
            components.add_security_scheme(name, SecurityScheme::Http(http));
        }
        let mut http = Http::new(HttpAuthScheme::Bearer);
        http.description = Some(
            "A single-use login token that `POST /auth/login-token/issue` answered.".to_string(),
        );
        components.add_security_scheme(LOGIN_TOKEN, SecurityScheme::Http(http));
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
            add_guard_answers(operation);
            add_shared_answers(operation);
        }
    }
    doc
}

/// The document as committed in `docs/openapi.json`: pretty, keys in a stable order.
pub fn pretty_json() -> String {
    let mut doc = serde_json::to_value(document())
        .unwrap_or_else(|err| unreachable!("the contract always serialises: {err}"));
    require_nullable_answer_fields(&mut doc);
    let mut json = serde_json::to_string_pretty(&doc)
        .unwrap_or_else(|err| unreachable!("the contract always serialises: {err}"));
    json.push('\n');
    json
}

/// utoipa leaves every `Option` field out of `required`, which is right for a request body
/// (the field may be left out) but not for an answer: serde sends `None` as `null`, so the
/// field is always there. A schema that no request body reaches gets its nullable fields
/// marked required, and the web's generated types read `x: T | null`, not `x?: T | null`.
/// (An answer field that is really left out when empty must not be an `Option` with
/// `skip_serializing_if`, or it would be described as always present.)
fn require_nullable_answer_fields(doc: &mut Value) {
    let mut in_requests = BTreeSet::new();
    let mut pending: Vec<String> = Vec::new();
    if let Some(paths) = doc["paths"].as_object() {
        for item in paths.values().filter_map(Value::as_object) {
            for operation in item.values() {
                collect_refs(&operation["requestBody"], &mut pending);
            }
        }
    }
    while let Some(name) = pending.pop() {
        if in_requests.insert(name.clone()) {
            collect_refs(&doc["components"]["schemas"][&name], &mut pending);
        }
    }
    let Some(schemas) = doc["components"]["schemas"].as_object_mut() else {
        return;
    };
    for (name, schema) in schemas.iter_mut() {
        if in_requests.contains(name) {
            continue;
        }
        // A type that flattens another is written `allOf: [{$ref}, {properties}]`.
        // `get_mut`, not `schema["allOf"]`: indexing a map mutably inserts the key, and
        // `"allOf": null` is no valid OpenAPI.
        match schema.get_mut("allOf").and_then(Value::as_array_mut) {
            Some(parts) => parts.iter_mut().for_each(require_nullable_fields),
            None => require_nullable_fields(schema),
        }
    }
}

fn require_nullable_fields(schema: &mut Value) {
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    let nullable: Vec<Value> = properties
        .iter()
        .filter(|(_, property)| is_nullable(property))
        .map(|(field, _)| Value::String(field.clone()))
        .collect();
    if nullable.is_empty() {
        return;
    }
    let mut required: Vec<Value> = schema["required"].as_array().cloned().unwrap_or_default();
    required.extend(nullable);
    required.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    required.dedup();
    schema["required"] = Value::Array(required);
}

fn collect_refs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|target| target.strip_prefix("#/components/schemas/"))
            {
                found.push(name.to_string());
            }
            map.values().for_each(|inner| collect_refs(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| collect_refs(inner, found)),
        _ => {}
    }
}

/// `type: [T, "null"]` or `oneOf: [{type: "null"}, ...]`, as utoipa writes an `Option`.
fn is_nullable(property: &Value) -> bool {
    let null = Value::String("null".into());
    property["type"]
        .as_array()
        .is_some_and(|types| types.contains(&null))
        || property["oneOf"]
            .as_array()
            .is_some_and(|variants| variants.iter().any(|variant| variant["type"] == null))
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

/// The answers of the guard a route requires (its only security requirement), merged with
/// the route's own: a route lists only the refusals that are its own (another member's
/// id, a viewer's read-only grant), and the guard's come first.
fn add_guard_answers(operation: &mut Operation) {
    let requires = |scheme: &str| {
        operation.security.as_deref()
            == Some(&[SecurityRequirement::new(scheme, Vec::<String>::new())][..])
    };
    let (unauthorized, forbidden) = if requires(MEMBER) {
        (
            Some("No valid session, or the account is not activated"),
            Some(("The account is suspended", MESSAGES)),
        )
    } else if requires(SESSION) {
        (Some("No valid session"), None)
    } else if requires(STAFF) {
        // The console refuses everyone else alike, token or not (`crate::staff`).
        (
            None,
            Some(("Not staff with a console grant", ERROR_MESSAGE)),
        )
    } else {
        return;
    };
    if let Some(description) = unauthorized {
        add_answer(operation, "401", description, MESSAGES, Place::First);
    }
    if let Some((description, schema)) = forbidden {
        add_answer(operation, "403", description, schema, Place::First);
    }
}

/// The answers the extractors (`crate::extract`) and the error type give on every route
/// that reads what they read, so each handler's attribute lists only its own: 500
/// anywhere; 400 for a path or query parameter that cannot be read; for a JSON body 400
/// (unreadable), 413 (too large), 415 (not JSON) and 422 (a field missing, of the wrong
/// type or holding a NUL); for a form 400 (no boundary), 415 (not a form) and 422 (no
/// file part, or a broken transfer).
fn add_shared_answers(operation: &mut Operation) {
    let reads_parameters = operation.parameters.iter().flatten().any(|parameter| {
        matches!(
            parameter.parameter_in,
            ParameterIn::Path | ParameterIn::Query
        )
    });
    let reads = |mime: &str| {
        operation
            .request_body
            .as_ref()
            .is_some_and(|body| body.content.contains_key(mime))
    };
    let mut shared: Vec<(&str, String, &str)> = Vec::new();
    if reads_parameters {
        let text = format!(
            "A path or query parameter of the wrong type, out of range or holding a NUL byte \
             (\"{BAD_PARAMETER}\")"
        );
        shared.push(("400", text, MESSAGES));
    }
    if reads("application/json") {
        shared.extend([
            ("400", "The body is not valid JSON".into(), MESSAGES),
            (
                "413",
                "The body is larger than the route accepts".into(),
                ERROR_MESSAGE,
            ),
            ("415", "The body is not `application/json`".into(), MESSAGES),
            (
                "422",
                "A field is missing, has the wrong type or holds a NUL byte".into(),
                MESSAGES,
            ),
        ]);
    }
    if reads("multipart/form-data") {
        let broken = format!("No `file` part, or a transfer broken mid-way (\"{UPLOAD_FAILED}\")");
        shared.extend([
            (
                "400",
                "The form cannot be read (no boundary)".into(),
                MESSAGES,
            ),
            (
                "415",
                "The body is not `multipart/form-data`".into(),
                MESSAGES,
            ),
            ("422", broken, MESSAGES),
        ]);
    }
    let internal = format!("Internal error (always \"{INTERNAL_ERROR}\"; the cause is logged)");
    shared.push(("500", internal, ERROR_MESSAGE));
    for (status, description, schema) in shared {
        add_answer(operation, status, &description, schema, Place::Last);
    }
}

const MESSAGES: &str = "Messages";
const ERROR_MESSAGE: &str = "ErrorMessage";

/// Where a shared answer's description goes beside the route's own answer of that status.
#[derive(Clone, Copy)]
enum Place {
    First,
    Last,
}

/// Adds a shared answer (`schema` is the envelope it answers) to the operation's: a status
/// the route does not list gets it alone; one it lists gets its description too, and a
/// schema of either kind when the two differ, so the contract holds whichever is answered.
fn add_answer(
    operation: &mut Operation,
    status: &str,
    description: &str,
    schema: &str,
    place: Place,
) {
    let answers = &mut operation.responses.responses;
    let Some(RefOr::T(response)) = answers.get_mut(status) else {
        answers
            .entry(status.to_string())
            .or_insert_with(|| envelope(description, schema));
        return;
    };
    if !response.description.contains(description) {
        response.description = match place {
            Place::First => format!("{description}; or: {}", response.description),
            Place::Last => format!("{}; or: {description}", response.description),
        };
    }
    let shared: RefOr<Schema> = Ref::from_schema_name(schema).into();
    let content = response
        .content
        .entry("application/json".to_string())
        .or_insert_with(|| Content::new(None::<RefOr<Schema>>));
    content.schema = Some(match content.schema.take() {
        None => shared,
        Some(RefOr::T(Schema::OneOf(mut either))) => {
            if !either.items.contains(&shared) {
                either.items.push(shared);
            }
            Schema::OneOf(either).into()
        }
        Some(own) if own == shared => own,
        Some(own) => Schema::OneOf(OneOfBuilder::new().item(own).item(shared).build()).into(),
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
