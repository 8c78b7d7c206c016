//! Delivery through a real SMTP conversation with the loopback sink of `testkit::smtp`.

use domain::Config;
use domain::infra::mail::{Branding, Button, Mailer, Notice, OutgoingMail};
use mail_parser::{MessageParser, MimeHeaders};
use testkit::smtp::start_sink;
use tokio::net::TcpListener;

fn mailer(smtp_url: &str) -> Mailer {
    let smtp_url = smtp_url.to_string();
    let config = Config::from_lookup(|name| (name == "FILIA_SMTP_URL").then(|| smtp_url.clone()))
        .expect("valid configuration");
    Mailer::from_config(&config).expect("mailer")
}

fn branding() -> Branding {
    Branding::new(
        "Clube Ação & Cia",
        Some("/brand/acao/logo.png"),
        "#6A1B9A",
        "https://acao.filia.com.br",
    )
}

fn activation_mail(to: &str) -> OutgoingMail {
    OutgoingMail::notice(
        &branding(),
        to,
        "Ative sua conta – Ação",
        &Notice {
            heading: "Bem-vinda ao clube".into(),
            paragraphs: vec![
                "MARKER-PARAGRAPH Sua inscrição está quase concluída.".into(),
                "Use o botão abaixo para confirmar seu e-mail.".into(),
            ],
            button: Some(Button {
                label: "Ativar conta".into(),
                url: "https://acao.filia.com.br/ativar?token=MARKER-TOKEN".into(),
            }),
        },
    )
}

#[tokio::test]
async fn a_notice_reaches_the_smtp_server_with_both_parts() {
    let (port, mut inbox) = start_sink("250 2.1.5 Ok").await;
    let mailer = mailer(&format!("smtp://127.0.0.1:{port}"));

    mailer
        .send(&activation_mail("Maria Souza <maria@example.com>"))
        .await
        .expect("delivered");

    let captured = inbox.recv().await.expect("one message");
    assert_eq!(
        captured.mail_from,
        "MAIL FROM:<nao-responda@acao.filia.com.br>"
    );
    assert_eq!(captured.rcpt_to, ["RCPT TO:<maria@example.com>"]);

    let raw = String::from_utf8(captured.data.clone()).expect("7-bit message");
    // Non-ASCII headers travel RFC 2047 encoded, never as raw UTF-8.
    assert!(raw.is_ascii());
    let subject = raw
        .lines()
        .find(|line| line.starts_with("Subject: "))
        .expect("Subject header");
    assert!(
        subject.to_ascii_lowercase().contains("=?utf-8?"),
        "{subject}"
    );

    let message = MessageParser::default()
        .parse(&captured.data)
        .expect("parsable message");
    assert_eq!(message.subject(), Some("Ative sua conta – Ação"));
    let from = message.from().and_then(|from| from.first()).expect("From");
    assert_eq!(from.name(), Some("Clube Ação & Cia"));
    assert_eq!(from.address(), Some("nao-responda@acao.filia.com.br"));
    let to = message.to().and_then(|to| to.first()).expect("To");
    assert_eq!(to.address(), Some("maria@example.com"));
    assert!(
        message
            .root_part()
            .is_content_type("multipart", "alternative")
    );

    let body = |subtype: &str| {
        message
            .parts
            .iter()
            .find(|part| part.is_content_type("text", subtype))
            .and_then(|part| part.text_contents())
            .unwrap_or_else(|| panic!("a text/{subtype} part"))
            .to_string()
    };
    let html = body("html");
    assert!(html.contains("MARKER-PARAGRAPH Sua inscrição está quase concluída."));
    assert!(html.contains(r#"href="https://acao.filia.com.br/ativar?token=MARKER-TOKEN""#));
    assert!(html.contains(">Ativar conta</a>"));
    assert!(html.contains("Clube Ação &amp; Cia"));
    assert!(html.contains("#6A1B9A"));
    assert!(html.contains(r#"src="https://acao.filia.com.br/brand/acao/logo.png""#));

    let text = body("plain");
    assert!(text.contains("MARKER-PARAGRAPH Sua inscrição está quase concluída."));
    assert!(text.contains("Ativar conta: https://acao.filia.com.br/ativar?token=MARKER-TOKEN"));
    assert!(text.contains("Clube Ação & Cia"));
    assert!(!text.contains("<p"));
}

#[tokio::test]
async fn a_closed_port_is_a_transient_failure_that_hides_the_credentials() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    let mailer = mailer(&format!("smtp://filia:s3nh4-secreta@127.0.0.1:{port}"));

    let err = mailer
        .send(&activation_mail("maria@example.com"))
        .await
        .expect_err("nobody listens");

    assert!(err.is_transient(), "{err}");
    for printed in [err.to_string(), format!("{err:?}"), format!("{mailer:?}")] {
        assert!(!printed.contains("s3nh4"), "{printed}");
    }
}

#[tokio::test]
async fn a_5xx_reply_is_a_permanent_failure() {
    let (port, mut inbox) = start_sink("550 5.1.1 Mailbox unavailable").await;
    let mailer = mailer(&format!("smtp://127.0.0.1:{port}"));

    let err = mailer
        .send(&activation_mail("ninguem@example.com"))
        .await
        .expect_err("recipient refused");

    assert!(!err.is_transient(), "{err}");
    assert!(err.to_string().contains("550"), "{err}");
    assert!(inbox.try_recv().is_err(), "no message was accepted");
}

#[tokio::test]
async fn a_4xx_reply_is_a_transient_failure() {
    let (port, _inbox) = start_sink("451 4.3.0 Try again later").await;
    let mailer = mailer(&format!("smtp://127.0.0.1:{port}"));

    let err = mailer
        .send(&activation_mail("maria@example.com"))
        .await
        .expect_err("recipient deferred");

    assert!(err.is_transient(), "{err}");
}

#[tokio::test]
async fn an_invalid_recipient_fails_permanently_before_connecting() {
    let mailer = mailer("smtp://127.0.0.1:9");

    let err = mailer
        .send(&activation_mail("maria.example.com"))
        .await
        .expect_err("not an address");

    assert!(!err.is_transient(), "{err}");
}

#[test]
fn every_supported_url_form_builds_and_a_bad_one_hides_the_password() {
    for url in [
        "smtp://relay.example.com",
        "smtp://usuario:s3nh4@relay.example.com:587?tls=required",
        "smtps://usuario:s3nh4@relay.example.com",
    ] {
        let config = Config::from_lookup(|name| (name == "FILIA_SMTP_URL").then(|| url.into()))
            .expect("valid configuration");
        Mailer::from_config(&config).unwrap_or_else(|err| panic!("{err:#}"));
    }

    let config = Config::from_lookup(|name| {
        (name == "FILIA_SMTP_URL").then(|| "http://usuario:s3nh4@relay.example.com".into())
    })
    .expect("valid configuration");
    let err = Mailer::from_config(&config).expect_err("not an SMTP scheme");
    assert!(!format!("{err:#} {err:?}").contains("s3nh4"), "{err:#}");
}
