//! Invitations (types 1 and 19) over HTTP against the real database: the spec's list rules,
//! one `mail.send` job per address in the station's branding with the member's own invite
//! link and the offer's points (and delivered through a real fleet to an SMTP listener),
//! the daily limit under concurrency, skipped addresses, other stations' activities, and
//! the member's own invitees.

use crate::common;
use std::time::Duration as StdDuration;

use crate::common::{call, insert_member, insert_station, send_json, session_of};
use axum::Router;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, NewActivity};
use domain::activities::invitations;
use domain::shared::ids::ActivityId;
use jobs::JobState;
use mail_parser::MessageParser;
use serde_json::{Value, json};
use sqlx::PgPool;
use testkit::smtp::start_sink;

const UNAVAILABLE: &str = "Erro! Esta atividade não está disponível.";
const CODE: &str = "CONV1234";

struct World {
    app: Router,
    db: PgPool,
    station_id: i64,
    member_id: i64,
    token: String,
    /// A published type 19 activity of the station, open now.
    invite: i64,
    link: String,
}

async fn activity(db: &PgPool, station_id: i64, edit: impl FnOnce(&mut NewActivity)) -> i64 {
    let mut new = NewActivity {
        station_id,
        type_id: ActivityType::Invitation,
        name: "Indique e ganhe".into(),
        points: 100,
        participation_start: Some(Utc::now() - Duration::days(1)),
        participation_end: Some(Utc::now() + Duration::days(1)),
        active: true,
        ..NewActivity::default()
    };
    edit(&mut new);
    catalogue::create(db, &new).await.expect("activity")
}

async fn exec(db: &PgPool, sql: &'static str, id: i64) {
    sqlx::query(sql)
        .bind(id)
        .execute(db)
        .await
        .expect("statement");
}

/// A member "Maria Convidante" of a new station whose offer gives the invitee 50 points.
async fn world(db: PgPool) -> World {
    let station_id = insert_station(&db, "clube").await;
    let member_id = insert_member(&db, station_id, "maria@example.com").await;
    sqlx::query("UPDATE users SET name = 'Maria Convidante', invite_code = $2 WHERE id = $1")
        .bind(member_id)
        .bind(CODE)
        .execute(&db)
        .await
        .expect("member");
    exec(
        &db,
        "INSERT INTO mgm_rules (station_id, points_inviter, points_invited) VALUES ($1, 100, 50)",
        station_id,
    )
    .await;
    let token = session_of(&db, member_id).await;
    let invite = activity(&db, station_id, |_| {}).await;
    World {
        app: common::app(db.clone()),
        db,
        station_id,
        member_id,
        token,
        invite,
        link: format!("https://outro.example.com/cadastrar/{CODE}-U{member_id}-E{station_id}"),
    }
}

impl World {
    async fn mgm(&self, token: &str, body: Value) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            "/api/send-html-to-mails-mgm",
            Some(token),
            &[],
            &body,
        )
        .await
    }

    async fn mgp(&self, action_id: i64, emails: &[&str]) -> common::Answer {
        send_json(
            &self.app,
            "POST",
            "/api/send-html-to-mails-mgp",
            Some(&self.token),
            &[],
            &json!({ "action_id": action_id, "emails": emails, "sender_name": "Maria",
                     "station_name": "Outro Clube", "points": 100, "station_id": self.station_id }),
        )
        .await
    }

    async fn invite(&self, emails: &[&str]) -> common::Answer {
        self.mgp(self.invite, emails).await
    }

    /// The `mail.send` jobs queued, oldest first: (id, payload's mail).
    async fn mails(&self) -> Vec<(String, Value)> {
        sqlx::query_as(
            "SELECT id, convert_from(job, 'UTF8')::jsonb -> 'args' -> 'mail' FROM apalis.jobs
              WHERE job_type = 'mail.send' ORDER BY run_at, id",
        )
        .fetch_all(&self.db)
        .await
        .expect("mail jobs")
    }

    async fn recorded(&self) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM invitation_mails WHERE inviter_id = $1")
            .bind(self.member_id)
            .fetch_one(&self.db)
            .await
            .expect("rows")
    }

    fn recipients(mails: &[(String, Value)]) -> Vec<String> {
        let mut to: Vec<String> = mails
            .iter()
            .map(|(_, mail)| mail["to"].as_str().expect("to").to_string())
            .collect();
        to.sort();
        to
    }
}

fn addresses(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}@example.com")).collect()
}

fn refs(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

#[testkit::db_test]
async fn six_addresses_are_the_contact_limit_and_nothing_is_queued(db: PgPool) {
    let world = world(db).await;
    let six = addresses("amigo", 6);
    for answer in [
        world.invite(&refs(&six)).await,
        world.mgm(&world.token, json!({ "emails": six })).await,
    ] {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(
            answer.json(),
            json!({"messages": ["Limite de contatos alcançado"]})
        );
    }
    assert!(world.mails().await.is_empty());
    assert_eq!(world.recorded().await, 0);
}

#[testkit::db_test]
async fn a_missing_or_invalid_address_is_refused_and_nothing_is_queued(db: PgPool) {
    let world = world(db).await;
    for (emails, messages) in [
        (
            json!(["ana@example.com", "ana@"]),
            json!(["Email inválido"]),
        ),
        (
            json!(["ana@example.com", "  "]),
            json!(["Esse campo é obrigatório"]),
        ),
        (json!([]), json!(["Esse campo é obrigatório"])),
        (
            json!(["", "sem-arroba", "ok@example.com"]),
            json!(["Esse campo é obrigatório", "Email inválido"]),
        ),
    ] {
        let answer = world.mgm(&world.token, json!({ "emails": emails })).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json()["messages"], messages, "{emails}");
    }
    let unreadable = world
        .mgm(&world.token, json!({ "emails": "ana@example.com" }))
        .await;
    assert_eq!(
        unreadable.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unreadable.text
    );
    assert!(world.mails().await.is_empty());
    assert_eq!(world.recorded().await, 0);
}

#[testkit::db_test]
async fn two_addresses_are_two_branded_mails_with_the_members_own_link_and_points(db: PgPool) {
    let world = world(db).await;
    // What the client says about the inviter, the link, the station and the points is
    // ignored; addresses may come as text or as objects.
    let answer = world
        .mgm(
            &world.token,
            json!({ "emails": [" Ana@Example.com", { "email": "bia@example.com" }],
                    "sender_name": "Golpista", "link": "https://golpe.example.com/cadastrar/X",
                    "station_name": "Banco Falso", "points": 99999,
                    "station_id": world.station_id }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({ "message": "Operação realizada com sucesso",
                "emails": ["ana@example.com", "bia@example.com"],
                "link": world.link, "points": 50, "remaining_today": 18 })
    );

    let mails = world.mails().await;
    assert_eq!(
        World::recipients(&mails),
        ["ana@example.com", "bia@example.com"]
    );
    for (_, mail) in &mails {
        assert_eq!(mail["subject"], "Maria convidou você para o Outro Clube");
        assert!(mail["from"].as_str().expect("from").contains("Outro Clube"));
        for body in [&mail["text"], &mail["html"]] {
            let body = body.as_str().expect("body");
            assert!(body.contains(&world.link), "{body}");
            assert!(body.contains("ganhe 50 pontos"), "{body}");
            assert!(body.contains("Outro Clube"), "{body}");
            for forged in ["Golpista", "golpe.example.com", "Banco Falso", "99999"] {
                assert!(!body.contains(forged), "{forged} in {body}");
            }
        }
    }
    // The jobs belong to the member and point at their rows.
    let owners: Vec<(i64, i64, String)> = sqlx::query_as(
        "SELECT r.station_id, r.user_id, r.subject_kind FROM apalis.jobs j
           JOIN job_records r ON r.job_id = j.id
          WHERE j.job_type = 'mail.send'",
    )
    .fetch_all(&world.db)
    .await
    .expect("owners");
    assert_eq!(owners.len(), 2);
    for (station_id, user_id, kind) in owners {
        assert_eq!(
            (station_id, user_id, kind.as_str()),
            (world.station_id, world.member_id, "invitation_mail")
        );
    }
    assert_eq!(world.recorded().await, 2);
}

#[testkit::db_test]
async fn the_mails_arrive_at_the_smtp_server_through_the_fleet(db: PgPool) {
    let world = world(db.clone()).await;
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let smtp = format!("smtp://127.0.0.1:{port}");
    let services = jobs::Services::new(
        jobs::fleet::pool_beside(&db),
        common::config_with(&[("FILIA_SMTP_URL", &smtp)]),
    )
    .expect("services");
    let fleet = jobs::fleet::spawn(services, Vec::new());

    let answer = world.invite(&["ana@example.com", "bia@example.com"]).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    for (id, _) in world.mails().await {
        let deadline = tokio::time::Instant::now() + StdDuration::from_secs(15);
        loop {
            let view = jobs::state::find(&db, &id)
                .await
                .expect("query")
                .expect("job");
            if view.state == JobState::Succeeded {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "{view:?}");
            tokio::time::sleep(StdDuration::from_millis(50)).await;
        }
    }
    let mut delivered = Vec::new();
    for _ in 0..2 {
        let captured = tokio::time::timeout(StdDuration::from_secs(5), inbox.recv())
            .await
            .expect("in time")
            .expect("a message");
        let message = MessageParser::default()
            .parse(&captured.data)
            .expect("MIME");
        assert_eq!(
            message.subject(),
            Some("Maria convidou você para o Outro Clube")
        );
        let text = message.body_text(0).expect("text part");
        assert!(text.contains(&world.link), "{text}");
        assert!(text.contains("ganhe 50 pontos"), "{text}");
        let html = message.body_html(0).expect("html part");
        assert!(html.contains(&world.link));
        delivered.push(
            message
                .to()
                .and_then(|to| to.first())
                .and_then(|to| to.address())
                .expect("To")
                .to_string(),
        );
    }
    delivered.sort();
    assert_eq!(delivered, ["ana@example.com", "bia@example.com"]);
    fleet.stop().await.expect("clean stop");
}

#[testkit::db_test]
async fn a_member_invites_at_most_twenty_addresses_a_day(db: PgPool) {
    let world = world(db).await;
    for round in 0..4 {
        let five = addresses(&format!("r{round}-"), 5);
        let answer = world.invite(&refs(&five)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        assert_eq!(answer.json()["remaining_today"], 15 - round * 5);
    }
    let answer = world.invite(&["mais@example.com"]).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json()["messages"],
        json!(["Você já enviou 20 convites hoje, o limite diário. Tente novamente amanhã."])
    );
    assert_eq!(world.mails().await.len(), 20);

    // Yesterday's invitations do not count today; three left from 20 - 17.
    sqlx::query(
        "UPDATE invitation_mails SET sent_at = sent_at - interval '1 day'
          WHERE id IN (SELECT id FROM invitation_mails ORDER BY id LIMIT 3)",
    )
    .execute(&world.db)
    .await
    .expect("yesterday");
    let four = addresses("hoje", 4);
    let answer = world.invite(&refs(&four)).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json()["messages"],
        json!(["Hoje você ainda pode convidar 3 contatos."])
    );
    let answer = world.invite(&refs(&four[..3])).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(world.mails().await.len(), 23);
}

#[testkit::db_test]
async fn an_address_is_mailed_once_a_month_by_the_same_member(db: PgPool) {
    let world = world(db).await;
    let first = world.invite(&["ana@example.com"]).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = world.invite(&["ANA@example.com", "bia@example.com"]).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(
        again.json()["remaining_today"],
        18,
        "a repeat is not counted"
    );
    assert_eq!(
        World::recipients(&world.mails().await),
        ["ana@example.com", "bia@example.com"]
    );
    // After 30 days the address may be invited again.
    sqlx::query("UPDATE invitation_mails SET sent_at = sent_at - interval '31 days'")
        .execute(&world.db)
        .await
        .expect("a month ago");
    let later = world.invite(&["ana@example.com"]).await;
    assert_eq!(later.status, StatusCode::CREATED, "{}", later.text);
    assert_eq!(world.mails().await.len(), 3);
    assert_eq!(world.recorded().await, 1, "older rows are pruned");
}

#[testkit::db_test]
async fn suppressed_addresses_and_members_are_skipped_alike(db: PgPool) {
    let world = world(db).await;
    let other_station = insert_station(&world.db, "outro").await;
    invitations::suppress(
        &world.db,
        Some(world.station_id),
        " Nao@Example.com",
        "pediu",
    )
    .await
    .expect("suppress");
    invitations::suppress(&world.db, None, "nunca@example.com", "pediu")
        .await
        .expect("suppress");
    // Only this station's suppression or a global one counts.
    invitations::suppress(&world.db, Some(other_station), "outra@example.com", "pediu")
        .await
        .expect("suppress");
    insert_member(&world.db, world.station_id, "socio@example.com").await;
    insert_member(&world.db, other_station, "de-fora@example.com").await;

    let answer = world
        .invite(&[
            "nao@example.com",
            "nunca@example.com",
            "socio@example.com",
            "outra@example.com",
            "de-fora@example.com",
        ])
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    // The answer does not tell who has an account or asked not to be mailed.
    assert_eq!(answer.json()["emails"].as_array().map(Vec::len), Some(5));
    assert_eq!(answer.json()["remaining_today"], 15);
    assert_eq!(
        World::recipients(&world.mails().await),
        ["de-fora@example.com", "outra@example.com"]
    );
}

#[testkit::db_test]
async fn the_activity_must_be_an_open_invitation_of_the_callers_station(db: PgPool) {
    let world = world(db).await;
    let other_station = insert_station(&world.db, "outro").await;
    let foreign = activity(&world.db, other_station, |_| {}).await;
    let quiz = activity(&world.db, world.station_id, |a| {
        a.type_id = ActivityType::Quiz;
        a.name = "Quiz da semana".into();
    })
    .await;
    let unpublished = activity(&world.db, world.station_id, |a| a.active = false).await;
    let earlier_view = activity(&world.db, world.station_id, |a| {
        a.type_id = ActivityType::EarlierInvitation
    })
    .await;
    let ended = activity(&world.db, world.station_id, |a| {
        a.participation_start = Some(Utc::now() - Duration::days(3));
        a.participation_end = Some(Utc::now() - Duration::days(2));
    })
    .await;
    let gated = activity(&world.db, world.station_id, |a| {
        a.name = "Com requisito".into();
        a.prerequisites = vec![ActivityId(quiz)];
    })
    .await;

    for action_id in [foreign, quiz, unpublished, 999_999] {
        let answer = world.mgp(action_id, &["ana@example.com"]).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        assert_eq!(answer.json(), json!({"error": UNAVAILABLE}));
    }
    let answer = world.mgp(ended, &["ana@example.com"]).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert!(
        answer.json()["messages"][0]
            .as_str()
            .is_some_and(|m| m.starts_with("Esta atividade está disponível de")),
        "{}",
        answer.text
    );
    let answer = world.mgp(gated, &["ana@example.com"]).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json()["messages"],
        json!(["Complete antes: Quiz da semana."])
    );
    // The station named in the body must be the caller's.
    let answer = world
        .mgm(
            &world.token,
            json!({ "emails": ["ana@example.com"], "station_id": other_station }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    assert!(world.mails().await.is_empty());

    let answer = world.mgp(earlier_view, &["ana@example.com"]).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(world.mails().await.len(), 1);
    assert_eq!(
        common::participations(&world.db, earlier_view).await,
        0,
        "sending is no participation"
    );

    let visitor = call(&world.app, "POST", "/api/send-html-to-mails-mgm", None, &[]).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
}

#[testkit::db_test]
async fn invitations_at_once_never_pass_the_daily_limit(db: PgPool) {
    let world = world(db).await;
    // Eight invitations of three new addresses each against 20 a day: six go through.
    let lists: Vec<Vec<String>> = (0..8).map(|n| addresses(&format!("c{n}-"), 3)).collect();
    let answers = futures_util::future::join_all(
        lists
            .iter()
            .map(|list| world.mgm(&world.token, json!({ "emails": list }))),
    )
    .await;
    let sent = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(
        sent,
        6,
        "{:?}",
        answers.iter().map(|a| &a.text).collect::<Vec<_>>()
    );
    for refused in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(
            refused.json()["messages"],
            json!(["Hoje você ainda pode convidar 2 contatos."])
        );
    }
    assert_eq!(world.mails().await.len(), 18);
    assert_eq!(world.recorded().await, 18);
}

#[testkit::db_test]
async fn a_member_lists_only_their_own_invitees(db: PgPool) {
    let world = world(db).await;
    let rule: i64 = sqlx::query_scalar("SELECT id FROM mgm_rules WHERE station_id = $1")
        .bind(world.station_id)
        .fetch_one(&world.db)
        .await
        .expect("rule");
    let other = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let invitee = async |email: &str, name: &str, inviter: i64, days_ago: i32| {
        let id = insert_member(&world.db, world.station_id, email).await;
        sqlx::query("UPDATE users SET name = $2 WHERE id = $1")
            .bind(id)
            .bind(name)
            .execute(&world.db)
            .await
            .expect("name");
        sqlx::query(
            "INSERT INTO mgm_invitations (invitee_id, inviter_id, rule_id, station_id, created_at)
             VALUES ($1, $2, $3, $4, now() - make_interval(days => $5))",
        )
        .bind(id)
        .bind(inviter)
        .bind(rule)
        .bind(world.station_id)
        .bind(days_ago)
        .execute(&world.db)
        .await
        .expect("invitation");
        id
    };
    let older = invitee("ana@example.com", "Ana Antiga", world.member_id, 5).await;
    let newer = invitee("bia@example.com", "Bia Nova", world.member_id, 1).await;
    invitee("caio@example.com", "Caio de Outro", other, 0).await;

    let uri = format!("/api/member-get-members/{}", world.member_id);
    let answer = call(&world.app, "GET", &uri, Some(&world.token), &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let list = answer.json();
    let names: Vec<&str> = list
        .as_array()
        .expect("list")
        .iter()
        .map(|i| i["invited"]["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["Bia Nova", "Ana Antiga"]);
    assert_eq!(list[0]["id"], newer);
    assert_eq!(list[1]["invited"]["id"], older);
    assert!(list[0]["createdAt"].is_string());

    let others = call(
        &world.app,
        "GET",
        &format!("/api/member-get-members/{other}"),
        Some(&world.token),
        &[],
    )
    .await;
    assert_eq!(others.status, StatusCode::FORBIDDEN, "{}", others.text);
    let visitor = call(&world.app, "GET", &uri, None, &[]).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    let theirs = call(
        &world.app,
        "GET",
        &format!("/api/member-get-members/{other}"),
        Some(&session_of(&world.db, other).await),
        &[],
    )
    .await;
    assert_eq!(theirs.json()[0]["invited"]["name"], "Caio de Outro");
}

#[testkit::db_test]
async fn an_address_gets_at_most_three_invitations_of_a_station_in_30_days(db: PgPool) {
    let world = world(db).await;
    // Five members of the station invite the same address; a link-like name is not shown.
    let mut senders = Vec::new();
    for n in 0..5 {
        let id = insert_member(&world.db, world.station_id, &format!("s{n}@example.com")).await;
        sqlx::query("UPDATE users SET name = 'pix-gratis.com/premio Silva' WHERE id = $1")
            .bind(id)
            .execute(&world.db)
            .await
            .expect("name");
        senders.push(session_of(&world.db, id).await);
    }
    // All at once: the address' count is not raced past.
    let sends = senders
        .iter()
        .map(|token| world.mgm(token, json!({ "emails": ["alvo@example.com"] })));
    for answer in futures_util::future::join_all(sends).await {
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    }
    let mails = world.mails().await;
    assert_eq!(mails.len(), 3, "{mails:?}");
    for (_, mail) in &mails {
        let subject = mail["subject"].as_str().expect("subject");
        assert!(subject.starts_with("Um amigo convidou você"), "{subject}");
        assert!(!mail.to_string().contains("pix-gratis"), "{mail}");
    }
    let skipped: i64 =
        sqlx::query_scalar("SELECT count(*) FROM invitation_mails WHERE outcome = 'address_limit'")
            .fetch_one(&world.db)
            .await
            .expect("skipped");
    assert_eq!(skipped, 2);
}

#[testkit::db_test]
async fn the_e_mail_s_unsubscribe_link_stops_the_station_s_invitations_to_that_address(db: PgPool) {
    let world = world(db).await;
    let sent = world.invite(&["ana@example.com"]).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.text);
    let mails = world.mails().await;
    let text = mails[0].1["text"].as_str().expect("text").to_string();
    let link = text
        .split_whitespace()
        .find(|word| word.contains("/convites/descadastrar?"))
        .expect("unsubscribe link");
    assert!(
        !link.contains("ana"),
        "the address is not in the link: {link}"
    );
    let query: std::collections::HashMap<&str, &str> = link
        .split_once('?')
        .expect("query")
        .1
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .collect();
    let body = |address: &str, hash: &str| {
        json!({ "station_id": query["s"].parse::<i64>().expect("station"), "address": address,
                "hash": hash })
    };
    let app = world.app.clone();
    let unsubscribe = |body: Value| {
        let app = app.clone();
        async move {
            send_json(
                &app,
                "POST",
                "/api/invitation-unsubscribe",
                None,
                &[],
                &body,
            )
            .await
        }
    };

    // A forged signature, or the signature of another address, is refused.
    let other = "0".repeat(64);
    for forged in [
        body(query["e"], &other),
        body(&other, query["h"]),
        body("zz", "zz"),
    ] {
        let refused = unsubscribe(forged).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json(), json!({ "messages": ["Link inválido."] }));
    }
    for _ in 0..2 {
        let done = unsubscribe(body(query["e"], query["h"])).await;
        assert_eq!(done.status, StatusCode::NO_CONTENT, "{}", done.text);
    }

    // Another member of the station invites the address: it is skipped, not mailed.
    let joao = insert_member(&world.db, world.station_id, "joao@example.com").await;
    let joao_token = session_of(&world.db, joao).await;
    let again = world
        .mgm(&joao_token, json!({ "emails": ["Ana@Example.com"] }))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(world.mails().await.len(), 1);
}
