//! Activation by code and by link, the confirmation method and the resend wait.

use crate::common;
use crate::common::{app, app_with, post_json};
use crate::signup_support::*;
use axum::http::StatusCode;
use axum::http::header::RETRY_AFTER;
use serde_json::{Value, json};
use sqlx::PgPool;

const PARTICIPANT: &str = "/api/auth/signup-participant";
const ACTIVATE: &str = "/api/auth/signup/activate-participant/";
const METHOD: &str = "/api/auth/confirmation-method";
const RESEND: &str = "/api/auth/resend-confirmation-email";

fn messages(answer: &common::Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).expect("messages")
}

/// Signs Maria up on a new public station: (station id, user id, her activation e-mail).
async fn signed_up(db: &PgPool, app: &axum::Router) -> (i64, i64, Value) {
    let (station_id, _) = station(db, "publico", &[]).await;
    let answer = post_json(
        app,
        PARTICIPANT,
        &participant(station_id, "maria@example.com").to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let user_id = answer.json()["user"]["id"].as_i64().expect("id");
    (
        station_id,
        user_id,
        last_mail_to(db, "maria@example.com").await,
    )
}

fn activation(station_id: i64, email: &str, hash: &str) -> String {
    json!({"station": station_id, "establishment": null, "email": email, "hash": hash}).to_string()
}

#[testkit::db_test]
async fn the_code_activates_and_the_member_can_log_in(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;

    let answer = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "Maria@Example.com", &code_of(&mail)),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["message"], "Sucesso! Código validado");
    assert_eq!(answer.json()["user"]["id"], user_id);
    assert_eq!(answer.json()["user"]["active"], 1);
    assert!(is_active(&db, user_id).await);

    // A second submit of the same code is not an error.
    let again = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &code_of(&mail)),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);

    let login = post_json(
        &app,
        &format!("/api/auth/login/establishment/{station_id}"),
        &json!({"email": "maria@example.com", "password": PASSWORD}).to_string(),
    )
    .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
}

#[testkit::db_test]
async fn five_wrong_codes_lock_the_code_but_not_the_link(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let code = code_of(&mail);
    let wrong = wrong_code(&code);

    for _ in 0..5 {
        let answer = post_json(
            &app,
            ACTIVATE,
            &activation(station_id, "maria@example.com", wrong),
        )
        .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(messages(&answer), ["Código inválido."]);
    }
    let right = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &code),
    )
    .await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(!is_active(&db, user_id).await);

    // The link of the same e-mail still works: it cannot be guessed.
    let link = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &link_token_of(&mail)),
    )
    .await;
    assert_eq!(link.status, StatusCode::OK, "{}", link.text);
    assert!(is_active(&db, user_id).await);
}

#[testkit::db_test]
async fn an_expired_code_asks_for_a_new_one(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    sqlx::query(
        "UPDATE activation_codes SET code_expires_at = now() - interval '1 second',
                link_expires_at = now() - interval '1 second' WHERE user_id = $1",
    )
    .bind(user_id)
    .execute(&db)
    .await
    .expect("expire");

    let code = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &code_of(&mail)),
    )
    .await;
    assert_eq!(
        messages(&code),
        ["Código expirado. Solicite um novo código."]
    );
    let link = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &link_token_of(&mail)),
    )
    .await;
    assert_eq!(messages(&link), ["Link de ativação inválido ou expirado."]);
    assert!(!is_active(&db, user_id).await);
}

#[testkit::db_test]
async fn the_link_activates_once_and_a_second_click_is_fine(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let token = link_token_of(&mail);

    let other_email = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "outra@example.com", &token),
    )
    .await;
    assert_eq!(
        messages(&other_email),
        ["Link de ativação inválido ou expirado."]
    );
    let made_up = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &"ab".repeat(32)),
    )
    .await;
    assert_eq!(
        messages(&made_up),
        ["Link de ativação inválido ou expirado."]
    );
    assert!(!is_active(&db, user_id).await);

    for _ in 0..2 {
        let answer = post_json(
            &app,
            ACTIVATE,
            &activation(station_id, "maria@example.com", &token),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(answer.json()["user"]["active"], 1);
    }

    let missing = post_json(
        &app,
        ACTIVATE,
        &json!({"station": station_id, "hash": token}).to_string(),
    )
    .await;
    assert_eq!(messages(&missing), ["Esse campo é obrigatório"]);
}

#[testkit::db_test]
async fn codes_and_links_work_only_in_their_station(db: PgPool) {
    let app = app(db.clone());
    let (_, user_id, mail) = signed_up(&db, &app).await;
    let (other_station, _) = station(&db, "outro", &[]).await;

    let code = post_json(
        &app,
        ACTIVATE,
        &activation(other_station, "maria@example.com", &code_of(&mail)),
    )
    .await;
    assert_eq!(messages(&code), ["Código inválido."]);
    let by_id = post_json(
        &app,
        ACTIVATE,
        &json!({"station": other_station, "user_id": user_id, "hash": code_of(&mail)}).to_string(),
    )
    .await;
    assert_eq!(messages(&by_id), ["Código inválido."]);
    let link = post_json(
        &app,
        ACTIVATE,
        &activation(other_station, "maria@example.com", &link_token_of(&mail)),
    )
    .await;
    assert_eq!(messages(&link), ["Link de ativação inválido ou expirado."]);
    assert!(!is_active(&db, user_id).await);
}

#[testkit::db_test]
async fn the_affiliated_flow_picks_the_method_then_activates_by_id(db: PgPool) {
    let (station_id, _) = station(&db, "sindicato", &["affiliated = true"]).await;
    sqlx::query(
        "INSERT INTO affiliate_roster (station_id, cpf, name, email) VALUES ($1, $2, 'João', 'joao@example.com')",
    )
    .bind(station_id)
    .bind(CPF_A_DIGITS)
    .execute(&db)
    .await
    .expect("roster");
    let app = app(db.clone());
    let created = post_json(
        &app,
        PARTICIPANT,
        &json!({"station_id": station_id, "cpf": CPF_A, "password": PASSWORD,
                "password_confirmation": PASSWORD})
        .to_string(),
    )
    .await;
    let user_id = created.json()["user"]["id"].as_i64().expect("id");

    let method = post_json(
        &app,
        METHOD,
        &json!({"station_id": station_id, "user_id": user_id, "type": "email",
                "email": "intruso@example.com"})
        .to_string(),
    )
    .await;
    assert_eq!(method.status, StatusCode::OK, "{}", method.text);
    assert_eq!(
        method.json(),
        json!({"message": "E-mail enviado com sucesso", "resend_in": 60})
    );
    let sent = mails(&db).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0]["to"], "joao@example.com",
        "never to an address in the body"
    );

    let soon = post_json(
        &app,
        METHOD,
        &json!({"station_id": station_id, "user_id": user_id, "type": "email"}).to_string(),
    )
    .await;
    assert_eq!(soon.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = soon.headers[RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(
        messages(&soon),
        [format!(
            "Aguarde {wait} segundos para pedir um novo código."
        )]
    );

    let activated = post_json(
        &app,
        ACTIVATE,
        &json!({"station": station_id, "email": "jo***@ex***.com", "user_id": user_id,
                "hash": code_of(&sent[0])})
        .to_string(),
    )
    .await;
    assert_eq!(activated.status, StatusCode::OK, "{}", activated.text);

    let missing_id = post_json(
        &app,
        METHOD,
        &json!({"station_id": station_id, "type": "email"}).to_string(),
    )
    .await;
    assert_eq!(
        messages(&missing_id),
        ["Não há cadastro aguardando confirmação."]
    );
    let sms = post_json(
        &app,
        METHOD,
        &json!({"station_id": station_id, "user_id": user_id, "type": "sms"}).to_string(),
    )
    .await;
    assert_eq!(
        messages(&sms),
        ["No momento, o código só pode ser enviado por e-mail."]
    );
}

#[testkit::db_test]
async fn resend_waits_the_same_for_known_and_unknown_addresses(db: PgPool) {
    let app = app_with(db.clone(), &[("FILIA_CONFIRMATION_RESEND_SECONDS", "1")]);
    let (station_id, user_id, first_mail) = signed_up(&db, &app).await;
    let resend = |email: &str| json!({"email": email, "station_id": station_id}).to_string();

    // The sign-up's own e-mail started the wait.
    let soon = post_json(&app, RESEND, &resend("maria@example.com")).await;
    assert_eq!(soon.status, StatusCode::TOO_MANY_REQUESTS, "{}", soon.text);
    assert_eq!(soon.headers[RETRY_AFTER], "1");
    let unknown = post_json(&app, RESEND, &resend("ninguem@example.com")).await;
    assert_eq!(unknown.status, StatusCode::OK);
    assert_eq!(
        unknown.json(),
        json!({"message": "E-mail enviado com sucesso", "resend_in": 1})
    );
    let unknown_again = post_json(&app, RESEND, &resend("NINGUEM@example.com")).await;
    assert_eq!(unknown_again.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        messages(&unknown_again),
        ["Aguarde 1 segundo para pedir um novo código."]
    );

    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let later = post_json(&app, RESEND, &resend(" Maria@example.com ")).await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.text);
    assert_eq!(
        later.json(),
        json!({"message": "E-mail enviado com sucesso", "resend_in": 1})
    );
    let sent = mails(&db).await;
    assert_eq!(sent.len(), 2, "nothing went to the unknown address");
    let new_code = code_of(&sent[1]);

    // Only the newest code is live.
    let old_code = code_of(&first_mail);
    if old_code != new_code {
        let old = post_json(
            &app,
            ACTIVATE,
            &json!({"station": station_id, "email": "maria@example.com", "hash": old_code})
                .to_string(),
        )
        .await;
        assert_eq!(messages(&old), ["Código inválido."]);
    }
    let new = post_json(
        &app,
        ACTIVATE,
        &json!({"station": station_id, "email": "maria@example.com", "hash": new_code}).to_string(),
    )
    .await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
    assert!(is_active(&db, user_id).await);

    let bad = post_json(&app, RESEND, &resend("não é e-mail")).await;
    assert_eq!(messages(&bad), ["Email inválido"]);
}

#[testkit::db_test]
async fn racing_resends_send_one_email(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, _) = signed_up(&db, &app).await;
    sqlx::query("UPDATE confirmation_cooldowns SET sent_at = now() - interval '2 minutes'")
        .execute(&db)
        .await
        .expect("age the wait");
    let body = json!({"email": "maria@example.com", "station_id": station_id}).to_string();
    let (a, b) = tokio::join!(
        post_json(&app, RESEND, &body),
        post_json(&app, RESEND, &body)
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::TOO_MANY_REQUESTS]);
    assert_eq!(mails(&db).await.len(), 2);
    assert!(!is_active(&db, user_id).await);
}

/// A code other than `code`.
fn wrong_code(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

/// Lets the next code e-mail to every address go out now.
async fn end_the_resend_wait(db: &PgPool) {
    sqlx::query("UPDATE confirmation_cooldowns SET sent_at = now() - interval '2 minutes'")
        .execute(db)
        .await
        .expect("age the wait");
}

#[testkit::db_test]
async fn wrong_codes_add_up_across_reissued_codes_until_a_lockout(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, first_mail) = signed_up(&db, &app).await;
    let try_code = |code: String| {
        let app = app.clone();
        async move {
            post_json(
                &app,
                ACTIVATE,
                &activation(station_id, "maria@example.com", &code),
            )
            .await
        }
    };
    for _ in 0..3 {
        let answer = try_code(wrong_code(&code_of(&first_mail)).into()).await;
        assert_eq!(messages(&answer), ["Código inválido."]);
    }

    // A new code does not give the guesser five fresh tries.
    end_the_resend_wait(&db).await;
    let resent = post_json(
        &app,
        RESEND,
        &json!({"email": "maria@example.com", "station_id": station_id}).to_string(),
    )
    .await;
    assert_eq!(resent.status, StatusCode::OK, "{}", resent.text);
    let code = code_of(&last_mail_to(&db, "maria@example.com").await);
    for _ in 0..2 {
        let answer = try_code(wrong_code(&code).into()).await;
        assert_eq!(messages(&answer), ["Código inválido."]);
    }
    let locked = try_code(code.clone()).await;
    assert_eq!(
        locked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        locked.text
    );
    let wait: u64 = locked.headers[RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((3500..=3600).contains(&wait), "{wait}");
    assert_eq!(
        messages(&locked),
        [
            "Muitas tentativas com código inválido. Aguarde 60 minutos ou use o link enviado por e-mail."
        ]
    );
    assert!(!is_active(&db, user_id).await);

    // After the lockout the live code works again, and the link always did.
    sqlx::query(
        "UPDATE activation_codes SET locked_until = now() - interval '1 second' WHERE user_id = $1",
    )
    .bind(user_id)
    .execute(&db)
    .await
    .expect("end the lockout");
    let right = try_code(code).await;
    assert_eq!(right.status, StatusCode::OK, "{}", right.text);
    assert!(is_active(&db, user_id).await);
    let failed: i16 =
        sqlx::query_scalar("SELECT failed_attempts FROM activation_codes WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(failed, 0, "a success clears the count");
}

#[testkit::db_test]
async fn code_emails_are_capped_per_address_and_day(db: PgPool) {
    let app = app_with(db.clone(), &[("FILIA_CONFIRMATION_MAX_PER_DAY", "2")]);
    let (station_id, _, _) = signed_up(&db, &app).await;
    let resend = |email: &str| json!({"email": email, "station_id": station_id}).to_string();

    // The sign-up's e-mail was the first of the day; one more goes, the third waits a day.
    for email in ["maria@example.com", "ninguem@example.com"] {
        if email == "ninguem@example.com" {
            let first = post_json(&app, RESEND, &resend(email)).await;
            assert_eq!(first.status, StatusCode::OK, "{}", first.text);
        }
        end_the_resend_wait(&db).await;
        let second = post_json(&app, RESEND, &resend(email)).await;
        assert_eq!(second.status, StatusCode::OK, "{}", second.text);
        end_the_resend_wait(&db).await;
        let third = post_json(&app, RESEND, &resend(email)).await;
        assert_eq!(
            third.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{email}: {}",
            third.text
        );
        let wait: u64 = third.headers[RETRY_AFTER]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("seconds");
        assert!((86_000..=86_400).contains(&wait), "{wait}");
        assert_eq!(
            messages(&third),
            [
                "Limite de códigos por dia atingido. Tente de novo amanhã ou use o link enviado por e-mail."
            ]
        );
    }
    assert_eq!(
        mails(&db).await.len(),
        2,
        "two to Maria, none to the unknown address"
    );

    // A day later the count starts over.
    sqlx::query(
        "UPDATE confirmation_cooldowns SET day_started_at = now() - interval '1 day 1 second'",
    )
    .execute(&db)
    .await
    .expect("age the day");
    let next_day = post_json(&app, RESEND, &resend("maria@example.com")).await;
    assert_eq!(next_day.status, StatusCode::OK, "{}", next_day.text);
}

#[testkit::db_test]
async fn activation_calls_are_limited_per_client_address(db: PgPool) {
    let app = app_with(
        db.clone(),
        &[
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
            ("FILIA_ACTIVATION_MAX_PER_IP", "3"),
        ],
    );
    let (station_id, user_id, _) = signed_up(&db, &app).await;
    let call = |uri: &'static str, ip: &'static str, body: Value| {
        let app = app.clone();
        async move {
            common::send_json(&app, "POST", uri, None, &[("x-forwarded-for", ip)], &body).await
        }
    };
    end_the_resend_wait(&db).await;
    let guess = json!({"station": station_id, "user_id": user_id, "hash": "000000"});
    let method = json!({"station_id": station_id, "user_id": user_id, "type": "email"});
    // Both calls count against one budget; an IPv6 client by its /64.
    for (uri, body, ip) in [
        (ACTIVATE, &guess, "2001:db8:0:1::1"),
        (ACTIVATE, &guess, "2001:db8:0:1::2"),
        (METHOD, &method, "2001:db8:0:1::3"),
    ] {
        let answer = call(uri, ip, body.clone()).await;
        assert_ne!(
            answer.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            answer.text
        );
    }
    for (uri, body) in [(ACTIVATE, &guess), (METHOD, &method)] {
        let refused = call(uri, "2001:db8:0:1::abcd", body.clone()).await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{uri}");
        assert!(refused.headers.contains_key(RETRY_AFTER));
        assert_eq!(
            messages(&refused),
            ["Muitas tentativas. Aguarde alguns minutos e tente novamente."]
        );
    }
    let elsewhere = call(ACTIVATE, "2001:db8:0:2::1", guess.clone()).await;
    assert_eq!(
        elsewhere.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        elsewhere.text
    );
}

#[testkit::db_test]
async fn the_activation_answer_carries_no_personal_data(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let answer = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, "maria@example.com", &link_token_of(&mail)),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({"message": "Sucesso! Código validado", "user": {"id": user_id, "active": 1}})
    );
}

/// The answers to six wrong codes in a row for one account: (status, body, Retry-After).
async fn six_wrong_codes(app: &axum::Router, body: Value) -> Vec<(StatusCode, Value, bool)> {
    let mut answers = Vec::new();
    for _ in 0..6 {
        let answer = post_json(app, ACTIVATE, &body.to_string()).await;
        let waits_an_hour = answer.headers.get(RETRY_AFTER).is_some_and(|seconds| {
            let seconds: u64 = seconds.to_str().expect("ascii").parse().expect("seconds");
            (3500..=3600).contains(&seconds)
        });
        answers.push((answer.status, answer.json(), waits_an_hour));
    }
    answers
}

#[testkit::db_test]
async fn wrong_codes_for_an_unknown_account_are_answered_as_for_a_real_one(db: PgPool) {
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let wrong = wrong_code(&code_of(&mail));
    let active_without_code = common::insert_member(&db, station_id, "ativo@example.com").await;
    let (other_station, _) = station(&db, "outro", &[]).await;

    let real = six_wrong_codes(
        &app,
        json!({"station": station_id, "email": "maria@example.com", "hash": wrong}),
    )
    .await;
    let mut expected = vec![
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"messages": ["Código inválido."]}),
            false,
        );
        5
    ];
    expected.push((
        StatusCode::TOO_MANY_REQUESTS,
        json!({"messages": ["Muitas tentativas com código inválido. Aguarde 60 minutos ou use o link enviado por e-mail."]}),
        true,
    ));
    assert_eq!(real, expected, "a real pending account");

    for (case, body) in [
        (
            "an unknown e-mail",
            json!({"station": station_id, "email": "ninguem@example.com", "hash": wrong}),
        ),
        (
            "an unknown account id",
            json!({"station": station_id, "email": "ni***@ex***.com", "user_id": 999_999, "hash": wrong}),
        ),
        (
            "an active account that never had a code",
            json!({"station": station_id, "email": "ativo@example.com", "hash": wrong}),
        ),
        (
            "the real account's id in another station",
            json!({"station": other_station, "email": "ma***@ex***.com", "user_id": user_id, "hash": wrong}),
        ),
    ] {
        assert_eq!(six_wrong_codes(&app, body).await, expected, "{case}");
    }
    let by_id = post_json(
        &app,
        ACTIVATE,
        &json!({"station": station_id, "email": "x", "user_id": active_without_code, "hash": wrong})
            .to_string(),
    )
    .await;
    assert_eq!(
        by_id.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "counted apart from its e-mail"
    );

    // An address counts as one identifier whatever its case, within its station only.
    let upper = post_json(
        &app,
        ACTIVATE,
        &activation(station_id, " NINGUEM@Example.com ", wrong),
    )
    .await;
    assert_eq!(
        upper.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        upper.text
    );
    let elsewhere = post_json(
        &app,
        ACTIVATE,
        &activation(other_station, "ninguem@example.com", wrong),
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!is_active(&db, user_id).await);
}

/// A pool of the test's database wide enough for every request of a burst at once, plus
/// the connection that holds the account's row (the test's own has 5).
async fn wide_pool(db: &PgPool) -> PgPool {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(16)
        .connect_with((*db.connect_options()).clone())
        .await
        .expect("pool")
}

/// Sends a code for `email` in a task of its own and answers its status and body.
fn spawn_code(
    app: &axum::Router,
    station_id: i64,
    email: &str,
    code: &str,
) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let (app, body) = (app.clone(), activation(station_id, email, code));
    tokio::spawn(async move {
        let answer = post_json(&app, ACTIVATE, &body).await;
        (answer.status, answer.json())
    })
}

/// Holds a row (`sql` locks it, `$1` names it) until the transaction ends.
async fn hold(
    db: &PgPool,
    sql: &'static str,
    id: i64,
) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut holder = db.begin().await.expect("tx");
    sqlx::query(sql)
        .bind(id)
        .execute(&mut *holder)
        .await
        .expect("hold the row");
    holder
}

const LOCKED: &str =
    "Muitas tentativas com código inválido. Aguarde 60 minutos ou use o link enviado por e-mail.";

#[testkit::db_test]
async fn wrong_codes_sent_at_once_count_as_if_sent_one_by_one(db: PgPool) {
    let db = wide_pool(&db).await;
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let wrong = wrong_code(&code_of(&mail));

    for (email, row, id) in [
        (
            "maria@example.com",
            "SELECT 1 FROM activation_codes WHERE user_id = $1 FOR UPDATE",
            user_id,
        ),
        (
            "ninguem@example.com",
            "SELECT 1 FROM activation_guesses WHERE station_id = $1 FOR UPDATE",
            station_id,
        ),
    ] {
        // One wrong code first, so the unknown address has its row to hold too.
        let first = spawn_code(&app, station_id, email, wrong)
            .await
            .expect("request");
        assert_eq!(first.0, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        // While the row is held, every request gets as far as it can: all eleven are in
        // flight before the first is checked.
        let holder = hold(&db, row, id).await;
        let burst: Vec<_> = (0..11)
            .map(|_| spawn_code(&app, station_id, email, wrong))
            .collect();
        testkit::until_waiting_for_locks(&db, 11).await;
        holder.commit().await.expect("release");

        let mut answers = Vec::new();
        for request in burst {
            answers.push(request.await.expect("request"));
        }
        answers.sort_by_key(|(status, _)| *status);
        let invalid = (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"messages": ["Código inválido."]}),
        );
        let locked = (StatusCode::TOO_MANY_REQUESTS, json!({"messages": [LOCKED]}));
        let mut expected = vec![invalid; 4];
        expected.extend(vec![locked; 7]);
        assert_eq!(
            answers, expected,
            "{email}: the fifth locks; later ones are not checked"
        );
    }
    let (failed, locked): (i16, bool) = sqlx::query_as(
        "SELECT failed_attempts, locked_until > now() FROM activation_codes WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&db)
    .await
    .expect("row");
    assert_eq!(
        (failed, locked),
        (0, true),
        "locked, the count started over"
    );
}

#[testkit::db_test]
async fn a_right_code_sent_with_wrong_ones_cannot_slip_past_the_lockout(db: PgPool) {
    let db = wide_pool(&db).await;
    let app = app(db.clone());
    let (station_id, user_id, mail) = signed_up(&db, &app).await;
    let code = code_of(&mail);
    let wrong = wrong_code(&code);
    for _ in 0..4 {
        let answer = spawn_code(&app, station_id, "maria@example.com", wrong)
            .await
            .expect("request");
        assert_eq!(answer.0, StatusCode::UNPROCESSABLE_ENTITY);
    }

    let holder = hold(
        &db,
        "SELECT 1 FROM activation_codes WHERE user_id = $1 FOR UPDATE",
        user_id,
    )
    .await;
    // The fifth wrong code is first in line for the row; the right one comes with ten more
    // wrong ones, all checked after it in whatever order the row lock hands them on.
    let fifth = spawn_code(&app, station_id, "maria@example.com", wrong);
    testkit::until_waiting_for_locks(&db, 1).await;
    let right = spawn_code(&app, station_id, "maria@example.com", &code);
    let others: Vec<_> = (0..10)
        .map(|_| spawn_code(&app, station_id, "maria@example.com", wrong))
        .collect();
    testkit::until_waiting_for_locks(&db, 12).await;
    holder.commit().await.expect("release");

    assert_eq!(
        fifth.await.expect("request"),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({"messages": ["Código inválido."]})
        )
    );
    let locked = (StatusCode::TOO_MANY_REQUESTS, json!({"messages": [LOCKED]}));
    assert_eq!(right.await.expect("request"), locked);
    for request in others {
        assert_eq!(request.await.expect("request"), locked);
    }
    assert!(!is_active(&db, user_id).await);
}

/// `confirmation-method` for `user_id` on the station: (status, body, Retry-After).
async fn ask_code_for(
    app: &axum::Router,
    station_id: i64,
    user_id: i64,
) -> (StatusCode, Value, Option<u64>) {
    let answer = post_json(
        app,
        METHOD,
        &json!({"station_id": station_id, "user_id": user_id, "type": "email"}).to_string(),
    )
    .await;
    let wait = answer
        .headers
        .get(RETRY_AFTER)
        .map(|seconds| seconds.to_str().expect("ascii").parse().expect("seconds"));
    (answer.status, answer.json(), wait)
}

#[testkit::db_test]
async fn confirmation_method_answers_alike_whatever_the_id(db: PgPool) {
    let (station_id, _) = station(&db, "sindicato", &["affiliated = true"]).await;
    sqlx::query(
        "INSERT INTO affiliate_roster (station_id, cpf, name, email) VALUES
             ($1, $2, 'João', 'joao@example.com'), ($1, $3, 'Sem E-mail', NULL)",
    )
    .bind(station_id)
    .bind(CPF_A_DIGITS)
    .bind(CPF_B)
    .execute(&db)
    .await
    .expect("roster");
    let app = app(db.clone());
    let mut pending = Vec::new();
    for cpf in [CPF_A, CPF_B] {
        let created = post_json(
            &app,
            PARTICIPANT,
            &json!({"station_id": station_id, "cpf": cpf, "password": PASSWORD,
                    "password_confirmation": PASSWORD})
            .to_string(),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
        pending.push(created.json()["user"]["id"].as_i64().expect("id"));
    }
    let active = common::insert_member(&db, station_id, "ativo@example.com").await;
    let (_, elsewhere, _) = signed_up(&db, &app).await;
    let before = mails(&db).await.len();

    for (case, user_id) in [
        ("a pending account", pending[0]),
        ("a pending account with no e-mail", pending[1]),
        ("an active account", active),
        ("another station's pending account", elsewhere),
        ("no account", 999_999),
    ] {
        let first = ask_code_for(&app, station_id, user_id).await;
        assert_eq!(
            first,
            (
                StatusCode::OK,
                json!({"message": "E-mail enviado com sucesso", "resend_in": 60}),
                None
            ),
            "{case}"
        );
        let (status, body, wait) = ask_code_for(&app, station_id, user_id).await;
        let wait = wait.unwrap_or_else(|| panic!("{case}: no Retry-After"));
        assert!((55..=60).contains(&wait), "{case}: {wait}");
        assert_eq!(
            (status, body),
            (
                StatusCode::TOO_MANY_REQUESTS,
                json!({"messages": [format!("Aguarde {wait} segundos para pedir um novo código.")]})
            ),
            "{case}"
        );
    }
    let sent: Vec<Value> = mails(&db).await.split_off(before);
    assert_eq!(
        sent.len(),
        1,
        "only the pending account with an e-mail gets one"
    );
    assert_eq!(sent[0]["to"], "joao@example.com");
}

#[testkit::db_test]
async fn confirmation_method_sends_nothing_while_the_address_waits(db: PgPool) {
    let app = app(db.clone());
    // The sign-up's own e-mail started the address' wait.
    let (station_id, user_id, _) = signed_up(&db, &app).await;
    let answer = ask_code_for(&app, station_id, user_id).await;
    assert_eq!(
        answer,
        (
            StatusCode::OK,
            json!({"message": "E-mail enviado com sucesso", "resend_in": 60}),
            None
        )
    );
    assert_eq!(mails(&db).await.len(), 1, "the sign-up's e-mail only");

    end_the_resend_wait(&db).await;
    let later = ask_code_for(&app, station_id, user_id).await;
    assert_eq!(later.0, StatusCode::OK, "{:?}", later.1);
    let sent = mails(&db).await;
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1]["to"], "maria@example.com");
}

#[testkit::db_test]
async fn wrong_codes_count_within_a_day_for_real_and_unknown_accounts_alike(db: PgPool) {
    let app = app(db.clone());
    let (station_id, _, mail) = signed_up(&db, &app).await;
    let wrong = wrong_code(&code_of(&mail));
    for email in ["maria@example.com", "ninguem@example.com"] {
        let body = json!({"station": station_id, "email": email, "hash": wrong}).to_string();
        let mut statuses = Vec::new();
        for _ in 0..4 {
            statuses.push(post_json(&app, ACTIVATE, &body).await.status);
        }
        // A day without a wrong code: the four no longer count.
        for table in ["activation_codes", "activation_guesses"] {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE {table} SET last_failed_at = last_failed_at - interval '25 hours'"
            )))
            .execute(&db)
            .await
            .expect("a day later");
        }
        for _ in 0..4 {
            statuses.push(post_json(&app, ACTIVATE, &body).await.status);
        }
        assert_eq!(
            statuses,
            [StatusCode::UNPROCESSABLE_ENTITY; 8],
            "{email}: four and four a day apart lock nothing"
        );
        let fifth = post_json(&app, ACTIVATE, &body).await;
        assert_eq!(fifth.status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        let sixth = post_json(&app, ACTIVATE, &body).await;
        assert_eq!(
            sixth.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{email}: five within the day lock"
        );
    }
}
