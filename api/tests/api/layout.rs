//! The layout's rules (docs/layout.md): business SQL lives in `domain/src/<area>/` (and the
//! job platform's own SQL in `jobs/`), never in route handlers, use cases (`app`) or the job
//! kinds of a business area, which call the area's functions instead; the use cases know no
//! job runner and no HTTP; and the wire format (the OpenAPI schema) is the API's alone.

use std::fs;
use std::path::{Path, PathBuf};

/// What writes or reads SQL with sqlx.
const SQL_CALLS: [&str; 5] = [
    "sqlx::query",
    "query_as(",
    "query_scalar(",
    "raw_sql(",
    "QueryBuilder",
];

/// Not business: the readiness probe's ping, the platform's own job kinds (canary,
/// retention) and the infrastructure's (`mail.send` drops a delivered e-mail's body from
/// its own job row), which work on the job tables.
const ALLOWED: [&str; 3] = [
    "api/src/routes/health.rs",
    "jobs/src/kinds/platform/",
    "jobs/src/kinds/infra/",
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn handlers_and_business_job_kinds_hold_no_sql() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let mut files = Vec::new();
    rust_files(&root.join("api/src/routes"), &mut files);
    rust_files(&root.join("jobs/src/kinds"), &mut files);
    rust_files(&root.join("app/src"), &mut files);
    assert!(files.len() > 20, "found only {files:?}");

    let mut offenders = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(root)
            .expect("inside the root")
            .to_string_lossy()
            .replace('\\', "/");
        if ALLOWED.iter().any(|allowed| relative.starts_with(allowed)) {
            continue;
        }
        let text = fs::read_to_string(&file).expect("readable file");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if SQL_CALLS.iter().any(|call| code.contains(call)) {
                offenders.push(format!("{relative}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "SQL belongs in domain/src/<area>/, called from here:\n{}",
        offenders.join("\n")
    );
}

/// The crates a workspace member's build depends on: its manifest's `[dependencies]` (a
/// test's stand-in server may use what the member itself must not).
fn dependencies_of(member: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let manifest =
        fs::read_to_string(root.join(member).join("Cargo.toml")).expect("a member's manifest");
    let mut section = "";
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]"
            && let Some(name) = line.split(['.', ' ', '=']).next().filter(|n| !n.is_empty())
        {
            names.push(name.to_owned());
        }
    }
    assert!(!names.is_empty(), "{member} has no [dependencies]?");
    names
}

#[test]
fn use_cases_depend_on_no_job_runner_and_no_http() {
    let dependencies = dependencies_of("app");
    for forbidden in ["jobs", "apalis", "apalis-core", "apalis-postgres", "axum"] {
        assert!(
            !dependencies.iter().any(|name| name == forbidden),
            "app depends on {forbidden}: the job platform implements app's Outbox, not the other way"
        );
    }
}

/// Request and answer types (the schema of docs/openapi.json) live beside their routes in
/// `api`: the rules, the use cases, the job platform and the adapters hold plain types in
/// the code's words, and nothing below the API can change the contract.
#[test]
fn only_the_api_knows_the_wire_schema() {
    for member in [
        "domain",
        "app",
        "jobs",
        "payments",
        "documents",
        "media",
        "seed",
    ] {
        let dependencies = dependencies_of(member);
        for wire in ["utoipa", "utoipa-axum", "axum"] {
            assert!(
                !dependencies.iter().any(|name| name == wire),
                "{member} depends on {wire}: wire types belong beside their routes in api"
            );
        }
    }
}
