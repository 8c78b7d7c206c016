//! The API contract: `docs/openapi.json` is what the code generates, every route it lists
//! is one the router answers, and `GET /api/openapi.json` serves it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::{app, call, get};
use axum::http::StatusCode;
use serde_json::Value;
use sqlx::PgPool;

const REGENERATE: &str = "cargo run -q --bin api -- openapi > docs/openapi.json";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the api crate sits in the repository")
        .to_path_buf()
}

fn document() -> Value {
    serde_json::from_str(&api::openapi::pretty_json()).expect("the contract is JSON")
}

#[test]
fn the_committed_contract_is_what_the_code_generates() {
    let path = repo_root().join("docs/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = api::openapi::pretty_json();
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "its end".to_string(), |n| format!("line {}", n + 1));
        panic!(
            "docs/openapi.json differs from what the code generates (from {line}). \
             Regenerate it from the repository root with `{REGENERATE}` and commit it."
        );
    }
}

/// OpenAPI 3.1 has `null` only as a value (a `default`, an `example`, a `const` or an `enum`
/// entry): a keyword written `null` (`"allOf": null`) makes the document invalid, and tools
/// that validate it (fuzzers, client generators) refuse to load it.
#[test]
fn the_contract_writes_no_keyword_as_null() {
    fn nulls(value: &Value, at: &str, found: &mut Vec<String>) {
        match value {
            Value::Null => found.push(at.to_string()),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    nulls(item, &format!("{at}/{index}"), found);
                }
            }
            Value::Object(fields) => {
                for (key, field) in fields {
                    if !matches!(
                        key.as_str(),
                        "default" | "example" | "examples" | "const" | "enum"
                    ) {
                        nulls(field, &format!("{at}/{key}"), found);
                    }
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    nulls(&document(), "#", &mut found);
    assert!(
        found.is_empty(),
        "{} keywords are null, e.g. {:?}",
        found.len(),
        &found[..found.len().min(5)]
    );
}

#[test]
fn operation_ids_are_unique_and_every_operation_has_answers() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut ids = BTreeMap::new();
    for (path, method, operation) in operations(&doc) {
        let id = operation["operationId"].as_str().expect("an operation id");
        if let Some(other) = ids.insert(id.to_string(), format!("{method} {path}")) {
            panic!("operationId {id} is used by {other} and {method} {path}");
        }
        let answers = operation["responses"].as_object().expect("responses");
        assert!(
            answers.keys().any(|status| status.starts_with('2')),
            "{method} {path} documents no success answer"
        );
        assert!(answers.contains_key("500"), "{method} {path}: no 500");
        assert!(path.starts_with("/api/"), "{path} is outside /api");
    }
}

/// Calls every documented operation with no token and no body: each must reach its handler
/// (whatever it answers), never the router's "no such route" 404 or its 405.
#[testkit::db_test]
async fn every_documented_route_is_answered_by_the_router(db: PgPool) {
    let app = app(db);
    let doc = document();

    let unknown = get(&app, "/api/no-such-route").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json()["error"], "Rota não encontrada");

    let mut called = 0;
    for (path, method, operation) in operations(&doc) {
        let uri = sample_uri(&path, operation);
        let answer = call(&app, &method.to_uppercase(), &uri, None, &[]).await;
        assert_ne!(
            answer.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}: {}",
            answer.text
        );
        if answer.status == StatusCode::NOT_FOUND {
            assert_ne!(
                answer.json()["error"],
                "Rota não encontrada",
                "{method} {uri} is documented but not routed"
            );
        }
        // The scheme a route requires names its guard, which refuses a call without a token
        // before anything else: the contract's guard answers are the route's real ones.
        let required = operation["security"].as_array().map(Vec::as_slice);
        let guard = match required {
            Some([only]) => only
                .as_object()
                .and_then(|names| names.keys().next().cloned()),
            _ => None,
        };
        let refused_with = match guard.as_deref() {
            Some("member" | "session") => Some(StatusCode::UNAUTHORIZED),
            Some("staff") => Some(StatusCode::FORBIDDEN),
            _ => None,
        };
        if let Some(status) = refused_with {
            assert_eq!(answer.status, status, "{method} {uri} without a token");
            let code = status.as_str();
            assert!(
                operation["responses"][code].is_object(),
                "{method} {path} does not document its guard's {code}"
            );
        } else if required
            .is_some_and(|alternatives| alternatives.contains(&Value::Object(Default::default())))
        {
            // `{}` among the alternatives: the token is optional, and its absence is no refusal.
            assert!(
                !matches!(
                    answer.status,
                    StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
                ),
                "{method} {uri} declares its token optional but refuses a call without one ({})",
                answer.status
            );
        } else if guard.is_none()
            && matches!(
                answer.status,
                StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
            )
        {
            // A route that needs a token must say so with its guard's scheme.
            assert!(
                operation["responses"][answer.status.as_str()].is_object(),
                "{method} {uri} refuses a call without a token ({}) but declares no guard",
                answer.status
            );
        }
        called += 1;
    }
    assert!(called >= 45, "only {called} operations documented");
}

#[testkit::db_test]
async fn the_api_serves_its_contract_without_a_token(db: PgPool) {
    let answer = get(&app(db), "/api/openapi.json").await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.headers["content-type"], "application/json");
    assert_eq!(answer.text, api::openapi::pretty_json());
}

/// `routes!` is what ties a route to its documentation; a plain `.route(...)` in the API's
/// route modules would serve a path the contract does not list. (`/healthz`, `/readyz` and
/// `/metrics` are operations endpoints outside `/api`.)
#[test]
fn api_routes_are_mounted_only_with_their_documentation() {
    let routes = repo_root().join("api/src/routes");
    for file in rust_files(&routes) {
        if file.ends_with("routes/health.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&file).expect("readable");
        for needle in [".route(", ".route_service(", ".nest_service("] {
            assert!(
                !source.contains(needle),
                "{} mounts a route with `{needle}`: use `.routes(routes!(handler))` and a \
                 `#[utoipa::path]` on the handler",
                file.display()
            );
        }
    }
}

/// Two schemas of one name would silently share one entry of the contract: every type
/// deriving `ToSchema` has its own name (`#[schema(as = ...)]` renames one).
#[test]
fn schema_names_are_unique() {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for crate_dir in ["domain/src", "jobs/src", "api/src"] {
        for file in rust_files(&repo_root().join(crate_dir)) {
            let source = std::fs::read_to_string(&file).expect("readable");
            for name in schema_names(&source) {
                let place = file.display().to_string();
                if let Some(other) = seen.insert(name.clone(), place.clone()) {
                    panic!("schema {name} is declared in {other} and {place}");
                }
            }
        }
    }
    assert!(seen.contains_key("Messages") && seen.contains_key("User"));
}

/// The schema names a source file declares: each `ToSchema` type's `as` name, or its own.
fn schema_names(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut deriving = false;
    let mut renamed: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if line.starts_with("#[derive(") && line.contains("ToSchema") {
            deriving = true;
        } else if deriving && let Some(rest) = line.strip_prefix("#[schema(as = ") {
            renamed = rest.split(')').next().map(String::from);
        } else if deriving && !line.starts_with("#[") && !line.starts_with("///") {
            let declared = line
                .split_whitespace()
                .skip_while(|word| *word != "struct" && *word != "enum")
                .nth(1)
                .map(|name| name.trim_end_matches(['{', '(', ';']).to_string());
            if let Some(name) = renamed.take().or(declared) {
                names.push(name);
            }
            deriving = false;
        }
    }
    names
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            found.push((path.clone(), method.clone(), operation));
        }
    }
    found
}

/// The path with each parameter filled with a value of its type.
fn sample_uri(path: &str, operation: &Value) -> String {
    let mut uri = path.to_string();
    let parameters = operation["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let kinds: BTreeSet<(String, String)> = parameters
        .iter()
        .filter(|parameter| parameter["in"] == "path")
        .map(|parameter| {
            (
                parameter["name"].as_str().unwrap_or_default().to_string(),
                parameter["schema"]["type"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    for (name, kind) in kinds {
        let value = if kind == "integer" { "1" } else { "sample" };
        uri = uri.replace(&format!("{{{name}}}"), value);
    }
    assert!(
        !uri.contains('{'),
        "{path}: a path parameter is not documented"
    );
    uri
}
