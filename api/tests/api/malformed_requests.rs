//! Every operation of the committed contract (`docs/openapi.json`), sent what a careless or
//! hostile client sends: a malformed JSON body, a malformed multipart body, a bad query, a
//! path id beyond 64 bits and a NUL byte in every text parameter. Each answers the error
//! envelope with a status its contract lists for that operation (and with the envelope the
//! contract gives that status), never a 5xx: PostgreSQL refuses NUL in text, so a NUL that
//! reached the database would answer 500.

use crate::common;
use std::collections::BTreeMap;

use crate::common::{app_with, contract, off_contract, send, session_of};
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use sqlx::PgPool;

/// One request sent to one operation, and the statuses it may get (besides the contract's).
struct Probe {
    what: String,
    method: String,
    uri: String,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    /// When set, the answer must be one of these (and documented).
    expected: Option<&'static [u16]>,
}

/// A parameter's refusal: the URL cannot be read (400) or names nothing (404).
const REFUSED_PARAMETER: &[u16] = &[400, 404];
const BAD_REQUEST: &[u16] = &[400];
const UNSUPPORTED: &[u16] = &[415];
/// A body that parses but holds a NUL: the field is refused (400 or 422).
const REFUSED_FIELD: &[u16] = &[400, 422];

#[derive(Clone)]
struct Parameter {
    name: String,
    location: String,
    integer: bool,
    required: bool,
}

fn parameters(operation: &Value) -> Vec<Parameter> {
    operation["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|parameter| {
            let schema = &parameter["schema"];
            let integer = schema["type"] == "integer"
                || schema["type"]
                    .as_array()
                    .is_some_and(|types| types.contains(&json!("integer")));
            Parameter {
                name: parameter["name"].as_str().unwrap_or_default().to_string(),
                location: parameter["in"].as_str().unwrap_or_default().to_string(),
                integer,
                required: parameter["required"] == true,
            }
        })
        .collect()
}

/// The operation's URI with each path parameter given a well-formed value unless
/// `overrides` names it, and the query's required parameters plus `query`.
fn uri(
    path: &str,
    params: &[Parameter],
    overrides: &[(&str, &str)],
    query: &[(&str, &str)],
) -> String {
    let mut uri = path.to_string();
    for param in params.iter().filter(|param| param.location == "path") {
        let given = overrides
            .iter()
            .find(|(name, _)| *name == param.name)
            .map(|(_, value)| value.to_string());
        let value = given.unwrap_or_else(|| if param.integer { "1" } else { "sample" }.into());
        uri = uri.replace(&format!("{{{}}}", param.name), &value);
    }
    let mut pairs: Vec<String> = params
        .iter()
        .filter(|param| param.location == "query" && param.required)
        .filter(|param| !query.iter().any(|(name, _)| *name == param.name))
        .map(|param| {
            format!(
                "{}={}",
                escape(&param.name),
                if param.integer { "1" } else { "sample" }
            )
        })
        .collect();
    pairs.extend(
        query
            .iter()
            .map(|(name, value)| format!("{}={value}", escape(name))),
    );
    if !pairs.is_empty() {
        uri.push('?');
        uri.push_str(&pairs.join("&"));
    }
    uri
}

/// `where[name]` as a URI carries it.
fn escape(name: &str) -> String {
    name.replace('[', "%5B").replace(']', "%5D")
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(target) => {
            let name = target.trim_start_matches("#/components/schemas/");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// A value of the schema's shape with every string a NUL, so that every text field of the
/// body carries one.
fn with_nul_strings(doc: &Value, schema: &Value, depth: usize) -> Value {
    let schema = resolve(doc, schema);
    if depth > 6 {
        return Value::Null;
    }
    if let Some(parts) = schema["allOf"].as_array() {
        let mut merged = serde_json::Map::new();
        for part in parts {
            if let Value::Object(fields) = with_nul_strings(doc, part, depth + 1) {
                merged.extend(fields);
            }
        }
        return Value::Object(merged);
    }
    for alternatives in ["oneOf", "anyOf"] {
        if let Some(variants) = schema[alternatives].as_array() {
            let variant = variants
                .iter()
                .find(|variant| resolve(doc, variant)["type"] != "null")
                .unwrap_or(&Value::Null);
            return with_nul_strings(doc, variant, depth + 1);
        }
    }
    let kind = match &schema["type"] {
        Value::Array(types) => types
            .iter()
            .find(|kind| *kind != "null")
            .cloned()
            .unwrap_or(Value::Null),
        kind => kind.clone(),
    };
    match kind.as_str() {
        Some("object") => Value::Object(
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, property)| (name.clone(), with_nul_strings(doc, property, depth + 1)))
                .collect(),
        ),
        Some("array") => json!([with_nul_strings(doc, &schema["items"], depth + 1)]),
        Some("string") => json!("nul\u{0}here"),
        Some("integer" | "number") => json!(1),
        Some("boolean") => json!(true),
        _ if schema["properties"].is_object() => with_nul_strings(
            doc,
            &json!({"type": "object", "properties": schema["properties"]}),
            depth,
        ),
        _ => Value::Null,
    }
}

fn probes(doc: &Value, path: &str, method: &str, operation: &Value) -> Vec<Probe> {
    let params = parameters(operation);
    let method = method.to_uppercase();
    let probe = |what: &str, uri: String, expected| Probe {
        what: what.to_string(),
        method: method.clone(),
        uri,
        content_type: None,
        body: Vec::new(),
        expected,
    };
    let mut probes = Vec::new();
    for param in &params {
        let name = param.name.as_str();
        match (param.location.as_str(), param.integer) {
            ("path", true) => {
                for value in ["99999999999999999999", "%00"] {
                    let uri = uri(path, &params, &[(name, value)], &[]);
                    probes.push(probe(
                        &format!("path {name}={value}"),
                        uri,
                        Some(REFUSED_PARAMETER),
                    ));
                }
            }
            ("path", false) => {
                let uri = uri(path, &params, &[(name, "a%00b")], &[]);
                probes.push(probe(
                    &format!("NUL in path {name}"),
                    uri,
                    Some(REFUSED_PARAMETER),
                ));
            }
            // A route may read a number as text to give it a message of its own (422).
            ("query", true) => {
                for value in ["x", "99999999999999999999"] {
                    let uri = uri(path, &params, &[], &[(name, value)]);
                    probes.push(probe(&format!("query {name}={value}"), uri, None));
                }
            }
            ("query", false) => {
                let uri = uri(path, &params, &[], &[(name, "a%00b")]);
                probes.push(probe(
                    &format!("NUL in query {name}"),
                    uri,
                    Some(REFUSED_PARAMETER),
                ));
            }
            _ => {}
        }
    }
    let content = &operation["requestBody"]["content"];
    let base = uri(path, &params, &[], &[]);
    let with_body = |what: &str, content_type, body: &[u8], expected| Probe {
        content_type: Some(content_type),
        body: body.to_vec(),
        ..probe(what, base.clone(), expected)
    };
    if let Some(schema) = content.get("application/json").map(|json| &json["schema"]) {
        // A route that reads its body itself (a webhook checks its signature first) may
        // refuse it for another reason: any documented refusal will do.
        let json = "application/json";
        probes.push(with_body("malformed JSON body", json, br#"{"a": "#, None));
        let nul = with_nul_strings(doc, schema, 0).to_string();
        if nul.contains("\\u0000") {
            let what = "NUL in every text of the body";
            probes.push(with_body(what, json, nul.as_bytes(), Some(REFUSED_FIELD)));
        }
        let form = "multipart/form-data; boundary=x";
        probes.push(with_body(
            "a form to a JSON route",
            form,
            b"--x--\r\n",
            None,
        ));
    }
    if content.get("multipart/form-data").is_some() {
        let what = "multipart without a boundary";
        probes.push(with_body(
            what,
            "multipart/form-data",
            b"garbage",
            Some(BAD_REQUEST),
        ));
        let broken = b"--filia\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nno end";
        let form = "multipart/form-data; boundary=filia";
        probes.push(with_body("malformed multipart body", form, broken, None));
        let json = "application/json";
        probes.push(with_body(
            "JSON to a form route",
            json,
            b"{}",
            Some(UNSUPPORTED),
        ));
    }
    probes
}

/// What the answer must be: a refusal, one of the probe's expected statuses, and what the
/// contract says the operation answers (`common::off_contract`).
fn judge(path: &str, probe: &Probe, answer: &common::Answer) -> Option<String> {
    let status = answer.status.as_u16();
    let why = if !(400..500).contains(&status) {
        Some(format!("{status} to a malformed request: {}", answer.text))
    } else if let Some(expected) = probe
        .expected
        .filter(|expected| !expected.contains(&status))
    {
        Some(format!(
            "{status} instead of one of {expected:?}: {}",
            answer.text
        ))
    } else {
        off_contract(&probe.method.to_lowercase(), path, answer)
    };
    why.map(|why| format!("{} {} ({}): {why}", probe.method, probe.uri, probe.what))
}

#[testkit::db_test]
async fn every_operation_answers_malformed_requests_with_its_documented_envelope(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    // Every probe comes from one address: the per-address limits would answer 429 before
    // the request is read.
    let app = app_with(
        db.clone(),
        &[
            ("FILIA_SIGNUP_MAX_PER_IP", "100000"),
            ("FILIA_ACTIVATION_MAX_PER_IP", "100000"),
            ("FILIA_SHARE_MAX_PER_IP", "100000"),
            ("FILIA_LOGIN_MAX_FAILURES_PER_IP", "100000"),
        ],
    );
    let doc = contract();
    let mut failures = Vec::new();
    let mut sent = BTreeMap::<&str, usize>::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            let guard = operation["security"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .flat_map(|names| names.keys())
                .next()
                .map(String::as_str);
            for probe in probes(doc, path, method, operation) {
                // A session of its own for each request: none of them may end another's.
                let token = match guard {
                    Some("member" | "session") => Some(session_of(&db, demo.member_id).await),
                    Some("staff") => Some(session_of(&db, demo.staff_id).await),
                    _ => None,
                };
                let mut request = Request::builder()
                    .method(probe.method.as_str())
                    .uri(&probe.uri);
                if let Some(token) = &token {
                    request = request.header("authorization", format!("Bearer {token}"));
                }
                if let Some(content_type) = probe.content_type {
                    request = request.header("content-type", content_type);
                }
                let request = request
                    .body(Body::from(probe.body.clone()))
                    .unwrap_or_else(|err| panic!("{}: {err}", probe.uri));
                let answer = send(&app, request).await;
                *sent.entry(method.as_str()).or_default() += 1;
                failures.extend(judge(path, &probe, &answer));
            }
        }
    }
    let total: usize = sent.values().sum();
    assert!(total > 200, "only {total} probes sent: {sent:?}");
    assert!(
        failures.is_empty(),
        "{} of {total} probes answered outside their contract:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The guards' refusals and a route's own are one status with two texts: whichever a call
/// gets is the envelope the contract gives that status (a suspended member's 403 is
/// `messages`, as is another station's on the quizzes route).
#[testkit::db_test]
async fn refusals_answer_the_envelope_their_contract_gives(db: PgPool) {
    let demo = seed::demo::seed(&db, "http://127.0.0.1:8080")
        .await
        .expect("seed");
    let app = common::app(db.clone());
    let blocked: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(seed::demo::BLOCKED_EMAIL)
        .fetch_one(&db)
        .await
        .expect("the suspended member");
    let suspended = session_of(&db, blocked).await;
    let member = session_of(&db, demo.member_id).await;
    let other_station = common::insert_station(&db, "outro").await;

    let mut failures = Vec::new();
    let mut refused = 0;
    for (path, item) in contract()["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            if operation["security"] != json!([{ "member": [] }]) {
                continue;
            }
            let uri = uri(path, &parameters(operation), &[], &[]);
            let answer =
                common::call(&app, &method.to_uppercase(), &uri, Some(&suspended), &[]).await;
            if answer.status.as_u16() != 403 {
                failures.push(format!(
                    "{method} {uri}: {} for a suspended member",
                    answer.status
                ));
            }
            failures.extend(
                off_contract(method, path, &answer).map(|why| format!("{method} {uri}: {why}")),
            );
            refused += 1;
        }
    }
    let path = "/api/quizzes/establishment/{id}";
    let uri = format!("/api/quizzes/establishment/{other_station}");
    let answer = common::call(&app, "GET", &uri, Some(&member), &[]).await;
    assert_eq!(answer.status.as_u16(), 403, "{}", answer.text);
    failures.extend(off_contract("get", path, &answer).map(|why| format!("GET {uri}: {why}")));

    assert!(refused > 80, "only {refused} member routes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
