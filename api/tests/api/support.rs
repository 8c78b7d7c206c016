//! Support messages over HTTP (docs/api-support.md): `POST /enviar-suporte` from visitors
//! and members (stored, mailed to the station and to the sender, each field's rule, the
//! captcha, the throttles, the session's identity), and the console's list and answer
//! (grants, scope, audit).

use axum::Router;
use axum::http::StatusCode;
use domain::staff::{Role, Scope};
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::build;

use crate::captcha::{captcha_on, fake_turnstile};
use crate::common::{self, Answer, call, send_json, session_of};

const URI: &str = "/api/enviar-suporte";
const FORBIDDEN: &str = "Você não possui autorização para acessar esta página.";
const TOO_MANY: &str =
    "Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente.";
const STATION_MAIL: &str = "contato@demo.filia.com.br";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    /// Support staff of every station, and the demo station's viewer.
    staff: String,
    viewer: String,
}

async fn world(db: PgPool) -> World {
    let (demo, token) = common::demo_member_session(&db).await;
    World {
        app: common::app(db.clone()),
        station_id: demo.station_id,
        member_id: demo.member_id,
        token,
        staff: session_of(&db, demo.staff_id).await,
        viewer: session_of(&db, demo.viewer_id).await,
        db,
    }
}

fn form(station_id: i64, email: &str) -> Value {
    json!({
        "name": "Ana Souza", "email": email, "phone": "(11) 98765-4321",
        "subject": "Meu cartão", "message": "Não recebi meu cartão de sócio.",
        "captcha": "off", "station_id": station_id, "user_id": null,
    })
}

async fn post(w: &World, token: Option<&str>, body: &Value) -> Answer {
    send_json(&w.app, "POST", URI, token, &[], body).await
}

fn messages(answer: &Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone())
        .unwrap_or_else(|_| panic!("messages: {}", answer.text))
}

/// The recipients of the `mail.send` jobs about message `id`, with their owners' user ids.
async fn mails_of(db: &PgPool, id: i64) -> Vec<(String, String, Option<i64>)> {
    sqlx::query_as(
        "SELECT convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'to',
                convert_from(j.job, 'UTF8')::jsonb -> 'args' -> 'mail' ->> 'subject',
                r.user_id
           FROM job_records r JOIN apalis.jobs j ON j.id = r.job_id
          WHERE r.subject_kind = 'support_message' AND r.subject_id = $1
          ORDER BY j.run_at, j.id",
    )
    .bind(id.to_string())
    .fetch_all(db)
    .await
    .expect("mails")
}

#[testkit::db_test]
async fn a_visitor_message_is_stored_and_mailed_to_the_station_and_the_sender(db: PgPool) {
    let w = world(db).await;
    let answer = post(&w, None, &form(w.station_id, " Ana@Example.com ")).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(answer.json()["message"], "Operação realizada com sucesso");
    let id = answer.json()["id"].as_i64().expect("id");
    let (station_id, user_id, email, phone, mailed): (i64, Option<i64>, String, Option<String>, bool) =
        sqlx::query_as(
            "SELECT station_id, user_id, email, phone, station_mailed FROM support_messages WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&w.db)
        .await
        .expect("stored");
    assert_eq!((station_id, user_id), (w.station_id, None));
    assert_eq!(email, "ana@example.com");
    assert_eq!(phone.as_deref(), Some("11987654321"));
    assert!(mailed);
    let mut mails = mails_of(&w.db, id).await;
    mails.sort();
    assert_eq!(
        mails,
        [
            (
                "ana@example.com".to_string(),
                "Recebemos sua mensagem".to_string(),
                None
            ),
            (
                STATION_MAIL.to_string(),
                "Fale conosco: Meu cartão".to_string(),
                None
            ),
        ]
    );
}

#[testkit::db_test]
async fn a_member_message_is_theirs_and_another_members_id_is_refused(db: PgPool) {
    let w = world(db).await;
    let mut body = form(w.station_id, "socio@example.com");
    body["user_id"] = json!(w.member_id);
    let answer = post(&w, Some(&w.token), &body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let id = answer.json()["id"].as_i64().expect("id");
    let user_id: Option<i64> =
        sqlx::query_scalar("SELECT user_id FROM support_messages WHERE id = $1")
            .bind(id)
            .fetch_one(&w.db)
            .await
            .expect("stored");
    assert_eq!(user_id, Some(w.member_id));
    // The acknowledgement is the member's to follow; the station's copy is not.
    let owners: Vec<Option<i64>> = mails_of(&w.db, id).await.into_iter().map(|m| m.2).collect();
    assert!(owners.contains(&Some(w.member_id)) && owners.contains(&None));

    let other = common::insert_member(&w.db, w.station_id, "outro@example.com").await;
    body["user_id"] = json!(other);
    let refused = post(&w, Some(&w.token), &body).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(messages(&refused), [FORBIDDEN]);
    // A visitor cannot write as a member, nor a member to another station.
    let as_member = post(&w, None, &body).await;
    assert_eq!(
        as_member.status,
        StatusCode::FORBIDDEN,
        "{}",
        as_member.text
    );
    let elsewhere = common::insert_station(&w.db, "outro").await;
    let mut body = form(elsewhere, "socio@example.com");
    body["user_id"] = json!(w.member_id);
    let other_station = post(&w, Some(&w.token), &body).await;
    assert_eq!(
        other_station.status,
        StatusCode::FORBIDDEN,
        "{}",
        other_station.text
    );
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM support_messages")
        .fetch_one(&w.db)
        .await
        .expect("count");
    assert_eq!(count, 1);
}

#[testkit::db_test]
async fn each_field_is_checked_with_the_specs_texts(db: PgPool) {
    let w = world(db).await;
    let empty = post(&w, None, &json!({ "station_id": w.station_id })).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        messages(&empty),
        [
            "name: Esse campo é obrigatório",
            "email: Esse campo é obrigatório",
            "subject: Esse campo é obrigatório",
            "message: Esse campo é obrigatório",
        ]
    );
    let mut body = form(w.station_id, "ana@");
    body["phone"] = json!("12-34");
    body["subject"] = json!("a".repeat(201));
    body["message"] = json!("b".repeat(601));
    assert_eq!(
        messages(&post(&w, None, &body).await),
        [
            "email: Email inválido",
            "phone: Telefone inválido",
            "subject: Esse campo deve possuir no máximo 200 caracteres",
            "message: Esse campo deve possuir no máximo 600 caracteres",
        ]
    );
    // At the limits, and without a phone, it goes.
    body["email"] = json!("ana@example.com");
    body["phone"] = json!("");
    body["subject"] = json!("á".repeat(200));
    body["message"] = json!("é".repeat(600));
    assert_eq!(post(&w, None, &body).await.status, StatusCode::CREATED);

    let mut no_station = form(w.station_id, "ana@example.com");
    no_station["station_id"] = Value::Null;
    assert_eq!(
        messages(&post(&w, None, &no_station).await),
        ["station_id: Esse campo é obrigatório"]
    );
    let nowhere = post(&w, None, &form(987_654, "ana@example.com")).await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND, "{}", nowhere.text);
}

#[testkit::db_test]
async fn a_station_without_a_contact_address_keeps_the_message_for_the_console(db: PgPool) {
    let w = world(db).await;
    sqlx::query("UPDATE stations SET contact_mail = NULL WHERE id = $1")
        .bind(w.station_id)
        .execute(&w.db)
        .await
        .expect("no contact");
    let answer = post(&w, None, &form(w.station_id, "ana@example.com")).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let id = answer.json()["id"].as_i64().expect("id");
    let recipients: Vec<String> = mails_of(&w.db, id).await.into_iter().map(|m| m.0).collect();
    assert_eq!(recipients, ["ana@example.com"]);
    let list = call(
        &w.app,
        "GET",
        &format!("/api/ops/stations/{}/support-messages", w.station_id),
        Some(&w.staff),
        &[],
    )
    .await;
    assert_eq!(list.json()["messages"][0]["station_mailed"], false);
}

#[testkit::db_test]
async fn the_captcha_is_checked_when_it_is_on(db: PgPool) {
    let (url, _) = fake_turnstile().await;
    let (demo, _) = common::demo_member_session(&db).await;
    let vars = captcha_on(&url);
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let app = common::app_with(db.clone(), &vars);
    let mut body = form(demo.station_id, "ana@example.com");
    for token in [json!("robô"), Value::Null] {
        body["captcha"] = token;
        let refused = send_json(&app, "POST", URI, None, &[], &body).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(
            messages(&refused),
            ["Verificação de segurança inválida. Tente novamente."]
        );
    }
    body["captcha"] = json!("humano");
    let passed = send_json(&app, "POST", URI, None, &[], &body).await;
    assert_eq!(passed.status, StatusCode::CREATED, "{}", passed.text);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM support_messages")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count, 1);
}

#[testkit::db_test]
async fn messages_are_throttled_per_email_member_and_address(db: PgPool) {
    let w = world(db).await;
    // Per e-mail address: 5 an hour, from anywhere.
    for _ in 0..5 {
        let sent = post(&w, None, &form(w.station_id, "muito@example.com")).await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    }
    let sixth = post(&w, None, &form(w.station_id, "MUITO@example.com")).await;
    assert_eq!(
        sixth.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        sixth.text
    );
    assert_eq!(messages(&sixth), [TOO_MANY]);
    assert!(sixth.headers.contains_key("retry-after"));

    // Per member: 5 an hour, whatever address they give.
    for n in 0..5 {
        let email = format!("socio{n}@example.com");
        let sent = post(&w, Some(&w.token), &form(w.station_id, &email)).await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    }
    let member_sixth = post(
        &w,
        Some(&w.token),
        &form(w.station_id, "socio9@example.com"),
    )
    .await;
    assert_eq!(member_sixth.status, StatusCode::TOO_MANY_REQUESTS);

    // Per client address: 10 an hour.
    let app = common::app_with(w.db.clone(), &[("FILIA_TRUST_FORWARDED_FOR", "true")]);
    let from = [("x-forwarded-for", "203.0.113.7")];
    for n in 0..10 {
        let email = format!("casa{n}@example.com");
        let sent = send_json(&app, "POST", URI, None, &from, &form(w.station_id, &email)).await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    }
    let eleventh = send_json(
        &app,
        "POST",
        URI,
        None,
        &from,
        &form(w.station_id, "casa99@example.com"),
    )
    .await;
    assert_eq!(eleventh.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(messages(&eleventh), [TOO_MANY]);
}

#[testkit::db_test]
async fn refused_posts_use_up_no_allowance(db: PgPool) {
    let (url, _) = fake_turnstile().await;
    let (demo, token) = common::demo_member_session(&db).await;
    let vars = captcha_on(&url);
    let mut vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vars.push(("FILIA_SUPPORT_MAX_PER_STATION", "5"));
    let app = common::app_with(db.clone(), &vars);
    let send = async |token: Option<&str>, body: &Value| {
        send_json(&app, "POST", URI, token, &[], body).await
    };
    // Malformed posts and failed captchas, as a visitor and as the member, with one address:
    // more than any allowance (the e-mail's, the member's and the station's are 5 each).
    let mut malformed = form(demo.station_id, "mesma@example.com");
    malformed["subject"] = json!("");
    malformed["captcha"] = json!("humano");
    let mut robot = form(demo.station_id, "mesma@example.com");
    robot["captcha"] = json!("robô");
    for _ in 0..3 {
        for who in [None, Some(token.as_str())] {
            let refused = send(who, &malformed).await;
            assert_eq!(
                refused.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{}",
                refused.text
            );
            let refused = send(who, &robot).await;
            assert_eq!(
                refused.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{}",
                refused.text
            );
        }
    }
    // Every allowance is whole: the member's five, from that same address.
    let mut valid = form(demo.station_id, "mesma@example.com");
    valid["captcha"] = json!("humano");
    for _ in 0..5 {
        let sent = send(Some(&token), &valid).await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    }
    let sixth = send(Some(&token), &valid).await;
    assert_eq!(
        sixth.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        sixth.text
    );
    assert_eq!(messages(&sixth), [TOO_MANY]);
    let wait: u64 = sixth.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((3500..=3600).contains(&wait), "{wait}");
}

#[testkit::db_test]
async fn a_station_takes_so_many_messages_an_hour_from_any_senders(db: PgPool) {
    let (demo, token) = common::demo_member_session(&db).await;
    let app = common::app_with(db.clone(), &[("FILIA_SUPPORT_MAX_PER_STATION", "3")]);
    let other_station = common::insert_station(&db, "outra").await;
    let send = async |token: Option<&str>, body: &Value| {
        send_json(&app, "POST", URI, token, &[], body).await
    };
    for n in 0..3 {
        let sent = send(None, &form(demo.station_id, &format!("v{n}@example.com"))).await;
        assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    }
    // A fresh visitor finds the station's inbox full.
    let visitor = send(None, &form(demo.station_id, "nova@example.com")).await;
    assert_eq!(
        visitor.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        visitor.text
    );
    assert_eq!(messages(&visitor), [TOO_MANY]);
    assert!(visitor.headers.contains_key("retry-after"));
    // A member is not shut out by visitors: their own allowance applies, not the inbox's.
    let member = send(Some(&token), &form(demo.station_id, "socia@example.com")).await;
    assert_eq!(member.status, StatusCode::CREATED, "{}", member.text);
    // Another station's inbox has its own count.
    let elsewhere = send(None, &form(other_station, "nova@example.com")).await;
    assert_eq!(elsewhere.status, StatusCode::CREATED, "{}", elsewhere.text);
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM support_messages WHERE station_id = $1")
            .bind(demo.station_id)
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(stored, 4, "three visitors' and the member's");
    // An hour later the oldest has left the window: one place again.
    sqlx::query(
        "UPDATE support_messages SET created_at = now() - interval '61 minutes'
          WHERE id = (SELECT min(id) FROM support_messages WHERE station_id = $1)",
    )
    .bind(demo.station_id)
    .execute(&db)
    .await
    .expect("age");
    let later = send(None, &form(demo.station_id, "nova@example.com")).await;
    assert_eq!(later.status, StatusCode::CREATED, "{}", later.text);
    let full = send(None, &form(demo.station_id, "outra@example.com")).await;
    assert_eq!(full.status, StatusCode::TOO_MANY_REQUESTS, "{}", full.text);
}

/// One address's allowance holds when messages for it reach several stations at once: each
/// would see fewer than 5 alone, so without the address's lock all ten would mail it.
#[testkit::db_test]
async fn one_address_gets_five_messages_an_hour_even_sent_to_many_stations_at_once(db: PgPool) {
    let app = common::app(db.clone());
    let mut stations = Vec::new();
    for n in 0..10 {
        stations.push(common::insert_station(&db, &format!("estacao{n}")).await);
    }
    let sends = stations.iter().map(|&station_id| {
        let app = app.clone();
        async move {
            let body = form(station_id, "alvo@example.com");
            send_json(&app, "POST", URI, None, &[], &body).await.status
        }
    });
    let statuses = futures_util::future::join_all(sends).await;
    let created = statuses
        .iter()
        .filter(|status| **status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 5, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::CREATED || *s == StatusCode::TOO_MANY_REQUESTS)
    );
    let stored: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM support_messages WHERE email = 'alvo@example.com'",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    assert_eq!(stored, 5);
}

async fn staff_of(db: &PgPool, station_id: i64, email: &str, role: Role) -> String {
    let id = build::member(station_id)
        .name("Equipe")
        .email(email)
        .staff()
        .insert(db)
        .await;
    domain::staff::set_grant(db, id, role, Scope::Station(station_id))
        .await
        .expect("grant");
    session_of(db, id).await
}

#[testkit::db_test]
async fn the_console_lists_and_answers_within_its_grant(db: PgPool) {
    let w = world(db).await;
    let mut ids = Vec::new();
    for n in 0..3 {
        let answer = post(&w, None, &form(w.station_id, &format!("p{n}@example.com"))).await;
        ids.push(answer.json()["id"].as_i64().expect("id"));
    }
    let list_uri = format!("/api/ops/stations/{}/support-messages", w.station_id);
    let list = call(
        &w.app,
        "GET",
        &format!("{list_uri}?per_page=2"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let listed = list.json();
    assert_eq!(listed["total"], 3);
    assert_eq!(listed["messages"].as_array().expect("page").len(), 2);
    assert_eq!(listed["messages"][0]["id"], ids[2], "newest first");
    let page_two = call(
        &w.app,
        "GET",
        &format!("{list_uri}?per_page=2&page=2"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(page_two.json()["messages"][0]["id"], ids[0]);
    let bad = call(
        &w.app,
        "GET",
        &format!("{list_uri}?status=lido"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    let answer_uri = format!("/api/ops/support-messages/{}/answer", ids[1]);
    let reply = json!({ "answer": "Seu cartão foi enviado hoje." });
    // A viewer reads but cannot answer.
    let viewer = send_json(&w.app, "POST", &answer_uri, Some(&w.viewer), &[], &reply).await;
    assert_eq!(viewer.status, StatusCode::FORBIDDEN, "{}", viewer.text);
    // Staff of another station see neither the list nor the message.
    let elsewhere = common::insert_station(&w.db, "outro").await;
    let stranger = staff_of(&w.db, elsewhere, "fora@example.com", Role::Support).await;
    let foreign_list = call(&w.app, "GET", &list_uri, Some(&stranger), &[]).await;
    assert_eq!(foreign_list.status, StatusCode::NOT_FOUND);
    let foreign = send_json(&w.app, "POST", &answer_uri, Some(&stranger), &[], &reply).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.text);
    assert_eq!(foreign.json()["error"], "Mensagem não encontrada.");
    // A member is not staff.
    let member = send_json(&w.app, "POST", &answer_uri, Some(&w.token), &[], &reply).await;
    assert_eq!(member.status, StatusCode::FORBIDDEN);

    let empty = send_json(
        &w.app,
        "POST",
        &answer_uri,
        Some(&w.staff),
        &[],
        &json!({ "answer": " " }),
    )
    .await;
    assert_eq!(messages(&empty), ["answer: Esse campo é obrigatório"]);
    let answered = send_json(&w.app, "POST", &answer_uri, Some(&w.staff), &[], &reply).await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.text);
    let shown = answered.json();
    assert_eq!(shown["answer"], "Seu cartão foi enviado hoje.");
    assert!(shown["answered_at"].is_string());
    assert!(shown["answered_by_name"].is_string());
    let again = send_json(&w.app, "POST", &answer_uri, Some(&w.staff), &[], &reply).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(again.json()["error"], "Esta mensagem já foi respondida.");

    let answer_mails: Vec<(String, String, Option<i64>)> = mails_of(&w.db, ids[1])
        .await
        .into_iter()
        .filter(|(_, subject, _)| subject.starts_with("Resposta"))
        .collect();
    assert_eq!(
        answer_mails,
        [(
            "p1@example.com".to_string(),
            "Resposta: Meu cartão".to_string(),
            None
        )]
    );
    let (action, details): (String, Value) = sqlx::query_as(
        "SELECT action, details FROM staff_audit WHERE station_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(w.station_id)
    .fetch_one(&w.db)
    .await
    .expect("audited");
    assert_eq!(action, "support.answer");
    assert_eq!(details["support_message_id"], ids[1]);

    let open = call(
        &w.app,
        "GET",
        &format!("{list_uri}?status=open"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(open.json()["total"], 2);
    let done = call(
        &w.app,
        "GET",
        &format!("{list_uri}?status=answered"),
        Some(&w.viewer),
        &[],
    )
    .await;
    assert_eq!(done.json()["messages"][0]["id"], ids[1]);
}
