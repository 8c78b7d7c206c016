//! Sign-up: the credentials check, the multi-step form per station kind, the simple form,
//! the company admin form, and the login answer of an account not yet activated.

use crate::common;
use crate::common::{app, post_json};
use crate::signup_support::*;
use axum::http::StatusCode;
use base64::Engine;
use serde_json::{Value, json};
use sqlx::PgPool;

const VALIDATIONS: &str = "/api/auth/signup-participant-validations";
const PARTICIPANT: &str = "/api/auth/signup-participant";
const SIMPLE: &str = "/api/auth/signup";
const ADMIN: &str = "/api/auth/signup-admin";

fn messages(answer: &common::Answer) -> Vec<String> {
    serde_json::from_value(answer.json()["messages"].clone()).expect("messages")
}

#[testkit::db_test]
async fn a_public_station_signs_up_an_inactive_account_and_mails_its_code(db: PgPool) {
    let (station_id, establishment_id) = station(&db, "publico", &[]).await;
    let app = app(db.clone());

    let check = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "email": " Maria@Example.com "}).to_string(),
    )
    .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.text);
    assert_eq!(
        check.json(),
        json!({"email": "maria@example.com", "celular": null, "isFiliado": false, "id": null, "tel": null})
    );

    let answer = post_json(
        &app,
        PARTICIPANT,
        &participant(station_id, "Maria@Example.com").to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    let user = &body["user"];
    assert_eq!(user["email"], "maria@example.com");
    assert_eq!(user["name"], "Maria da Silva");
    assert_eq!(user["active"], 0);
    assert_eq!(user["type_id"], 2);
    assert_eq!(user["establishment"]["id"], establishment_id);
    assert_eq!(body["confirmation"]["sent"], true);
    assert_eq!(body["confirmation"]["resend_in"], 60);
    let job_id = body["confirmation"]["job_id"].as_str().expect("job id");

    let user_id = user["id"].as_i64().expect("id");
    let (invite_code, password_hash): (String, String) =
        sqlx::query_as("SELECT invite_code, password_hash FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(&db)
            .await
            .expect("user row");
    assert_eq!(invite_code.len(), 8);
    assert!(password_hash.starts_with("$argon2id$"));

    let owner: (i64, Option<i64>, String) = sqlx::query_as(
        "SELECT station_id, user_id, subject_kind FROM job_records WHERE job_id = $1",
    )
    .bind(job_id)
    .fetch_one(&db)
    .await
    .expect("job record");
    assert_eq!(owner, (station_id, Some(user_id), "user".to_string()));
    let mail = last_mail_to(&db, "maria@example.com").await;
    assert_eq!(mail["subject"], "Confirme o seu cadastro");
    let code = code_of(&mail);
    let token = link_token_of(&mail);
    assert!(mail["text"].as_str().expect("text").contains(&format!(
        "https://publico.example.com/ativar/{token}/maria@example.com"
    )));
    // Only hashes are stored.
    let stored: (Vec<u8>, Vec<u8>) = sqlx::query_as(
        "SELECT code_hash, link_token_hash FROM activation_codes WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&db)
    .await
    .expect("activation row");
    assert!(!String::from_utf8_lossy(&stored.0).contains(&code));
    assert_eq!(stored.1.len(), 32);

    let again = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "email": "maria@example.com"}).to_string(),
    )
    .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&again), ["Este e-mail já está cadastrado."]);
}

#[testkit::db_test]
async fn each_broken_rule_has_its_message(db: PgPool) {
    let (public, _) = station(&db, "publico", &[]).await;
    let (private, _) = station(&db, "fechado", &["is_public = false"]).await;
    let app = app(db.clone());

    let empty = post_json(
        &app,
        PARTICIPANT,
        &json!({"station_id": private}).to_string(),
    )
    .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(messages(&empty), ["Esse campo é obrigatório"]);

    let broken = post_json(
        &app,
        PARTICIPANT,
        &json!({
            "station_id": private, "email": "maria@", "cpf": "111.111.111-11", "name": "   ",
            "tel": "12", "password": "fraca", "password_confirmation": "fraca",
            "birthday": "31/02/1990", "state": "XX",
        })
        .to_string(),
    )
    .await;
    assert_eq!(
        messages(&broken),
        [
            "Email inválido",
            "CPF inválido",
            "Esse campo é obrigatório",
            "Telefone inválido",
            "Data Inválida!",
            "Estado inválido",
            "Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20.",
        ]
    );

    let mismatch = post_json(
        &app,
        PARTICIPANT,
        &with(
            participant(public, "a@example.com"),
            json!({"password_confirmation": "Senha124"}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(messages(&mismatch), ["As senhas não conferem."]);

    let no_cpf_on_private = post_json(
        &app,
        PARTICIPANT,
        &participant(private, "a@example.com").to_string(),
    )
    .await;
    assert_eq!(messages(&no_cpf_on_private), ["Esse campo é obrigatório"]);
    let with_cpf = post_json(
        &app,
        PARTICIPANT,
        &with(participant(private, "a@example.com"), json!({"cpf": CPF_A})).to_string(),
    )
    .await;
    assert_eq!(with_cpf.status, StatusCode::CREATED, "{}", with_cpf.text);
    assert_eq!(with_cpf.json()["user"]["cpf"], CPF_A_DIGITS);

    let unknown_station = post_json(
        &app,
        PARTICIPANT,
        &participant(999_999, "a@example.com").to_string(),
    )
    .await;
    assert_eq!(unknown_station.status, StatusCode::NOT_FOUND);
    assert!(mails(&db).await.len() == 1, "only the good sign-up mailed");
}

#[testkit::db_test]
async fn duplicates_get_a_clear_message_even_when_racing(db: PgPool) {
    let (station_id, _) = station(&db, "publico", &[]).await;
    let (other_station, _) = station(&db, "outro", &[]).await;
    let app = app(db.clone());

    let body = with(
        participant(station_id, "maria@example.com"),
        json!({"cpf": CPF_A}),
    )
    .to_string();
    let (first, second) = tokio::join!(
        post_json(&app, PARTICIPANT, &body),
        post_json(&app, PARTICIPANT, &body)
    );
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::UNPROCESSABLE_ENTITY],
        "{} / {}",
        first.text,
        second.text
    );
    let loser = if first.status == StatusCode::CREATED {
        &second
    } else {
        &first
    };
    assert!(
        [
            "Este e-mail já está cadastrado.",
            "Este CPF já está cadastrado."
        ]
        .contains(&messages(loser)[0].as_str()),
        "{}",
        loser.text
    );

    let same_cpf = post_json(
        &app,
        PARTICIPANT,
        &with(
            participant(station_id, "outra@example.com"),
            json!({"cpf": CPF_A}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(messages(&same_cpf), ["Este CPF já está cadastrado."]);
    let check = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "email": "MARIA@example.com", "cpf": CPF_A}).to_string(),
    )
    .await;
    assert_eq!(
        messages(&check),
        [
            "Este e-mail já está cadastrado.",
            "Este CPF já está cadastrado."
        ]
    );

    // Another station is another programme: the same person may join it.
    let elsewhere = post_json(
        &app,
        PARTICIPANT,
        &with(
            participant(other_station, "maria@example.com"),
            json!({"cpf": CPF_A}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::CREATED, "{}", elsewhere.text);
}

async fn roster(db: &PgPool, station_id: i64, cpf: &str, email: Option<&str>) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO affiliate_roster (station_id, cpf, name, email, tel)
         VALUES ($1, $2, 'João Filiado', $3, '(11) 91234-5678') RETURNING id",
    )
    .bind(station_id)
    .bind(cpf)
    .bind(email)
    .fetch_one(db)
    .await
    .expect("roster")
}

#[testkit::db_test]
async fn an_affiliated_station_signs_up_only_its_roster(db: PgPool) {
    let (station_id, _) = station(
        &db,
        "sindicato",
        &["affiliated = true", "is_public = false"],
    )
    .await;
    let (other_station, _) = station(&db, "outro", &["affiliated = true"]).await;
    let entry = roster(
        &db,
        station_id,
        CPF_A_DIGITS,
        Some("joao.filiado@example.com"),
    )
    .await;
    roster(&db, other_station, CPF_B, Some("b@example.com")).await;
    let app = app(db.clone());

    let check = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "cpf": CPF_A}).to_string(),
    )
    .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.text);
    assert_eq!(
        check.json(),
        json!({"email": "jo***@ex***.com", "celular": "(**) *****-5678", "isFiliado": true,
               "id": entry, "tel": "(**) *****-5678"})
    );

    for cpf in [CPF_B, CPF_C] {
        let outsider = post_json(
            &app,
            VALIDATIONS,
            &json!({"station_id": station_id, "cpf": cpf}).to_string(),
        )
        .await;
        assert_eq!(
            messages(&outsider),
            ["CPF não encontrado na base de filiados. Procure o seu sindicato ou associação."],
            "a roster entry of another station is never found"
        );
    }
    let no_cpf = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id}).to_string(),
    )
    .await;
    assert_eq!(messages(&no_cpf), ["Esse campo é obrigatório"]);

    let signup = post_json(
        &app,
        PARTICIPANT,
        &json!({"station_id": station_id, "cpf": CPF_A, "email": "ignorado@example.com",
                "password": PASSWORD, "password_confirmation": PASSWORD})
        .to_string(),
    )
    .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);
    let body = signup.json();
    assert_eq!(body["user"]["email"], "joao.filiado@example.com");
    assert_eq!(body["user"]["name"], "João Filiado");
    assert_eq!(
        body["confirmation"],
        json!({"sent": false, "job_id": null, "resend_in": 60})
    );
    assert!(mails(&db).await.is_empty());

    let roster_outsider = post_json(
        &app,
        PARTICIPANT,
        &json!({"station_id": station_id, "cpf": CPF_B,
                "password": PASSWORD, "password_confirmation": PASSWORD})
        .to_string(),
    )
    .await;
    assert_eq!(
        messages(&roster_outsider),
        ["CPF não encontrado na base de filiados. Procure o seu sindicato ou associação."]
    );
    let twice = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "cpf": CPF_A}).to_string(),
    )
    .await;
    assert_eq!(
        messages(&twice),
        [
            "Este e-mail já está cadastrado.",
            "Este CPF já está cadastrado."
        ]
    );
}

#[testkit::db_test]
async fn a_promotional_station_asks_for_adults_with_state_and_city(db: PgPool) {
    let (station_id, _) = station(&db, "promo", &["promotional = true"]).await;
    let app = app(db.clone());
    let base = participant(station_id, "promo@example.com");

    let missing = post_json(&app, PARTICIPANT, &base.to_string()).await;
    assert_eq!(messages(&missing), ["Esse campo é obrigatório"]);

    let minor_birthday = (chrono::Utc::now().date_naive() - chrono::Duration::days(365 * 17))
        .format("%Y-%m-%d 00:00:00")
        .to_string();
    let minor = post_json(
        &app,
        PARTICIPANT,
        &with(
            base.clone(),
            json!({"birthday": minor_birthday, "state": "SP", "city": "Santos"}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(messages(&minor), ["É necessário ser maior de 18 anos."]);

    let adult = post_json(
        &app,
        PARTICIPANT,
        &with(
            base,
            json!({"birthday": "1990-05-17 00:00:00", "state": "sp", "city": " Santos "}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(adult.status, StatusCode::CREATED, "{}", adult.text);
    let user = &adult.json()["user"];
    assert_eq!(user["birthday"], "1990-05-17");
    assert_eq!(user["state"], "SP");
    assert_eq!(user["city"], "Santos");
}

#[testkit::db_test]
async fn a_no_cpf_station_needs_name_and_phone_and_keeps_cpf_null(db: PgPool) {
    let (station_id, _) = station(&db, "semcpf", &["no_cpf = true", "is_public = false"]).await;
    let app = app(db.clone());

    let check = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "email": "ana@example.com"}).to_string(),
    )
    .await;
    assert_eq!(messages(&check), ["Esse campo é obrigatório"]);
    let check = post_json(
        &app,
        VALIDATIONS,
        &json!({"station_id": station_id, "email": "ana@example.com", "name": "Ana",
                "tel": "(11) 98765-4321", "cpf": null})
        .to_string(),
    )
    .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.text);
    assert_eq!(check.json()["tel"], "(11) 98765-4321");

    let signup = post_json(
        &app,
        PARTICIPANT,
        &participant(station_id, "ana@example.com").to_string(),
    )
    .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);
    assert_eq!(signup.json()["user"]["cpf"], Value::Null);
}

fn simple(station_id: i64) -> Value {
    json!({
        "cpf": CPF_A, "birthday": "1990-05-17 00:00:00", "state": "RJ",
        "firstName": "  Maria ", "lastName": " Souza  ", "phoneNumber": "(21) 99876-5432",
        "captcha": "", "station": station_id, "type": 2, "subdomain": "simples",
    })
}

#[testkit::db_test]
async fn the_simple_form_signs_in_at_once(db: PgPool) {
    let (station_id, establishment_id) = station(&db, "simples", &["signup_flow = 'simple'"]).await;
    let app = app(db.clone());

    let answer = post_json(&app, SIMPLE, &simple(station_id).to_string()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    assert_eq!(body["token"].as_str().map(str::len), Some(64));
    let user = &body["user"];
    assert_eq!(user["name"], "Maria Souza");
    assert_eq!(user["active"], 1);
    assert_eq!(user["briefingDone"], false);
    assert_eq!(user["establishment"]["id"], establishment_id);
    let (hash, code): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT password_hash, invite_code FROM users WHERE id = $1")
            .bind(user["id"].as_i64())
            .fetch_one(&db)
            .await
            .expect("row");
    assert!(hash.is_none());
    assert!(code.is_some());

    let twice = post_json(&app, SIMPLE, &simple(station_id).to_string()).await;
    assert_eq!(messages(&twice), ["Este CPF já está cadastrado."]);

    let broken = post_json(
        &app,
        SIMPLE,
        &json!({"station": {"id": station_id}, "cpf": "123", "birthday": "2020-01-01",
                "state": "", "firstName": "  ", "phoneNumber": "abc"})
        .to_string(),
    )
    .await;
    assert_eq!(
        messages(&broken),
        [
            "CPF inválido",
            "É necessário ser maior de 18 anos.",
            "Esse campo é obrigatório",
            "Telefone inválido",
        ]
    );
}

#[testkit::db_test]
async fn the_simple_form_is_refused_where_the_station_does_not_use_it(db: PgPool) {
    let (multi_step, _) = station(&db, "multi", &[]).await;
    let (affiliated, _) = station(
        &db,
        "filiados",
        &["signup_flow = 'simple'", "affiliated = true"],
    )
    .await;
    let app = app(db.clone());
    for station_id in [multi_step, affiliated] {
        let answer = post_json(&app, SIMPLE, &simple(station_id).to_string()).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            messages(&answer),
            ["Esta estação não aceita este tipo de cadastro."]
        );
    }
    let accounts: i64 = sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(accounts, 0);
}

#[testkit::db_test]
async fn one_address_may_only_try_so_many_sign_ups_in_a_window(db: PgPool) {
    let (station_id, _) = station(&db, "simples", &["signup_flow = 'simple'"]).await;
    let app = common::app_with(
        db,
        &[
            ("FILIA_SIGNUP_MAX_PER_IP", "2"),
            ("FILIA_SIGNUP_WINDOW_SECONDS", "600"),
            ("FILIA_TRUST_FORWARDED_FOR", "true"),
        ],
    );
    let from = |ip: &'static str, uri: &'static str, body: Value| {
        let app = app.clone();
        async move {
            common::send_json(&app, "POST", uri, None, &[("x-forwarded-for", ip)], &body).await
        }
    };
    let first = from("203.0.113.5", SIMPLE, simple(station_id)).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    // Failed attempts count too.
    let second = from("203.0.113.5", ADMIN, json!({})).await;
    assert_eq!(second.status, StatusCode::UNPROCESSABLE_ENTITY);
    for uri in [
        SIMPLE,
        PARTICIPANT,
        VALIDATIONS,
        ADMIN,
        "/api/auth/validate-email-forgot-pass",
    ] {
        let third = from("203.0.113.5", uri, json!({})).await;
        assert_eq!(third.status, StatusCode::TOO_MANY_REQUESTS, "{uri}");
        assert_eq!(
            messages(&third),
            ["Muitas tentativas. Aguarde alguns minutos e tente novamente."]
        );
        let wait: u64 = third.headers["retry-after"]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("seconds");
        assert!((1..=600).contains(&wait), "{wait}");
    }
    let elsewhere = from(
        "198.51.100.1",
        VALIDATIONS,
        json!({"station_id": station_id}),
    )
    .await;
    assert_eq!(
        elsewhere.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        elsewhere.text
    );
}

fn png_base64() -> String {
    let image = image::RgbaImage::from_pixel(4, 4, image::Rgba([10, 20, 30, 128]));
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("png");
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn company(subdomain: &str) -> Value {
    json!({
        "name": "Carla Dona", "email": "carla@empresa.com.br", "password": PASSWORD,
        "password_confirmation": PASSWORD, "cnpj": CNPJ, "prettyName": "Clube da Empresa",
        "subdomain": subdomain, "country": "BR", "main_brand_color": "#1a73e8", "type": 1,
        "main_brand_image": {"imageType": "png", "base64": png_base64()},
    })
}

#[testkit::db_test]
async fn a_company_creates_its_station_and_admin(db: PgPool) {
    let data_dir = std::env::temp_dir().join(format!("filia-signup-{}", ulid::Ulid::generate()));
    let app = common::app_with(
        db.clone(),
        &[("FILIA_DATA_DIR", data_dir.to_str().expect("utf-8"))],
    );

    let answer = post_json(&app, ADMIN, &company(" Minha Empresa ").to_string()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let body = answer.json();
    assert_eq!(body["token"].as_str().map(str::len), Some(64));
    assert_eq!(body["user"]["type_id"], 1);
    assert_eq!(body["user"]["active"], 1);
    assert_eq!(body["user"]["briefingDone"], false);
    let station = &body["station"];
    assert_eq!(station["subdomain"], "minhaempresa");
    assert_eq!(station["name"], "Clube da Empresa");
    assert_eq!(station["main_brand_color"], "#1A73E8");
    assert_eq!(station["establishment"]["cnpj"], "11222333000181");
    assert_eq!(
        body["user"]["establishment"]["id"],
        station["establishment"]["id"]
    );
    let logo = station["logo_image"].as_str().expect("logo");
    let key = logo.strip_prefix("/api/media/").expect("an object url");
    assert!(data_dir.join("objects").join(key).exists());

    let taken = post_json(&app, ADMIN, &company("minhaempresa").to_string()).await;
    assert_eq!(messages(&taken), ["Este endereço já está em uso."]);

    let broken = post_json(
        &app,
        ADMIN,
        &with(
            company("clube-ótimo"),
            json!({"cnpj": "11.222.333/0001-80", "main_brand_color": "azul", "country": "AR",
                   "main_brand_image": {"imageType": "png", "base64": "bm90IGFuIGltYWdl"},
                   "password_confirmation": "Outra123"}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(
        messages(&broken),
        [
            "As senhas não conferem.",
            "CNPJ inválido",
            "Apenas letras sem acento",
            "No momento, apenas empresas do Brasil (BR) podem se cadastrar.",
            "Cor inválida. Use o formato #RRGGBB.",
        ],
        "the logo is decoded only once the rest of the form passed"
    );
    let bad_logo = post_json(
        &app,
        ADMIN,
        &with(
            company("outra"),
            json!({"main_brand_image": {"imageType": "png", "base64": "bm90IGFuIGltYWdl"}}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(
        messages(&bad_logo),
        ["Imagem inválida. Envie um arquivo JPG, PNG, WEBP ou GIF."]
    );
    let big = "A".repeat(1_500_000);
    let too_big = post_json(
        &app,
        ADMIN,
        &with(
            company("outra"),
            json!({"main_brand_image": {"imageType": "png", "base64": big}}),
        )
        .to_string(),
    )
    .await;
    assert_eq!(messages(&too_big), ["Erro: Imagem maior que 1MB"]);
    std::fs::remove_dir_all(data_dir).ok();
}

#[testkit::db_test]
async fn platform_hosts_are_not_for_stations(db: PgPool) {
    let app = common::app_with(db.clone(), &[("FILIA_PUBLIC_URL", "https://filia.com.br")]);
    for subdomain in ["www", "API", "suporte", "cdn", "filia"] {
        let mut form = company(subdomain);
        form.as_object_mut()
            .expect("object")
            .remove("main_brand_image");
        let answer = post_json(&app, ADMIN, &form.to_string()).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{subdomain}"
        );
        assert_eq!(
            messages(&answer),
            ["Este endereço já está em uso."],
            "{subdomain}"
        );
    }
    let stations: i64 = sqlx::query_scalar("SELECT count(*) FROM stations")
        .fetch_one(&db)
        .await
        .expect("count");
    let free = post_json(&app, ADMIN, &company("filiais").to_string()).await;
    assert_eq!(free.status, StatusCode::CREATED, "{}", free.text);
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM stations")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(after, stations + 1);
}

#[testkit::db_test]
async fn two_companies_racing_for_one_subdomain_get_a_message_not_a_500(db: PgPool) {
    let app = app(db.clone());
    let mut other = company("disputado");
    other["email"] = json!("outra@empresa.com.br");
    other
        .as_object_mut()
        .expect("object")
        .remove("main_brand_image");
    let mut first = company("disputado");
    first
        .as_object_mut()
        .expect("object")
        .remove("main_brand_image");
    let (first, other) = (first.to_string(), other.to_string());
    let (a, b) = tokio::join!(
        post_json(&app, ADMIN, &first),
        post_json(&app, ADMIN, &other)
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::UNPROCESSABLE_ENTITY]
    );
}

#[testkit::db_test]
async fn login_of_an_account_waiting_for_activation_leads_to_the_code_step(db: PgPool) {
    let (station_id, _) = station(&db, "publico", &[]).await;
    // Failed logins are counted in Redis: a prefix of its own keeps other runs out.
    let prefix = format!("filia-test-{}:", ulid::Ulid::generate());
    let app = common::app_with(db.clone(), &[("FILIA_REDIS_PREFIX", &prefix)]);
    let created = post_json(
        &app,
        PARTICIPANT,
        &participant(station_id, "maria@example.com").to_string(),
    )
    .await;
    let user_id = created.json()["user"]["id"].as_i64().expect("id");
    let login = format!("/api/auth/login/establishment/{station_id}");

    let right = post_json(
        &app,
        &login,
        &json!({"email": "maria@example.com", "password": PASSWORD}).to_string(),
    )
    .await;
    assert_eq!(right.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        right.json(),
        json!({
            "messages": ["Confirme o seu cadastro para entrar: escolha onde receber o código de verificação."],
            "affiliate": {"id": user_id, "email": "ma***@ex***.com", "celular": "(**) *****-4321",
                          "tel": "(**) *****-4321", "isFiliado": false},
        })
    );

    let wrong = post_json(
        &app,
        &login,
        &json!({"email": "maria@example.com", "password": "Errada123"}).to_string(),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong.json(),
        json!({"messages": ["E-mail, CPF ou senha incorretos."]})
    );
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(sessions, 0);
}
