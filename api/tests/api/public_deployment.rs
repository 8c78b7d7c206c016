//! The real `api` binary behind an https public URL: `serve` refuses the sandbox provider
//! and `seed-demo` refuses to create its published accounts unless `FILIA_STAGING=true`
//! says the deployment is a test one; with it, both run.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sqlx::PgPool;

/// A public deployment with its own secrets, on the sandbox provider.
const PUBLIC_SANDBOX: [(&str, &str); 3] = [
    ("FILIA_PUBLIC_URL", "https://clube.example.com.br"),
    ("FILIA_SIGNING_KEY", "a-long-random-production-key"),
    ("FILIA_SANDBOX_WEBHOOK_SECRET", "whsec_s3cr3t"),
];

fn api(db: &PgPool, command: &str, env: &[(&str, &str)]) -> Command {
    let data = std::env::temp_dir().join(format!(
        "filia-public-deployment-{}",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let mut api = Command::new(env!("CARGO_BIN_EXE_api"));
    api.arg(command)
        .env_clear()
        .env("DATABASE_URL", testkit::database_url(db))
        .env("FILIA_DATA_DIR", &data)
        .env("FILIA_WEB_DIR", PathBuf::from("/nonexistent"))
        .env("FILIA_LOG", "info")
        // Without ffmpeg the seed leaves its videos out (faster, and not what is tested).
        .env("PATH", "/nonexistent")
        .envs(env.iter().copied());
    api
}

/// Runs the binary to its end, which must come within `RUN_LIMIT`: a `serve` that does not
/// refuse runs on, and fails the test rather than hang it.
fn run(mut command: Command) -> Output {
    let log = std::env::temp_dir().join(format!(
        "filia-public-deployment-{}.log",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let file = std::fs::File::create(&log).expect("log");
    let mut child = command
        .stdin(Stdio::null())
        .stderr(file.try_clone().expect("log"))
        .stdout(file)
        .spawn()
        .expect("run the api binary");
    let deadline = Instant::now() + RUN_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "still running after {RUN_LIMIT:?}:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let said = std::fs::read(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    Output {
        status,
        stdout: said,
        stderr: Vec::new(),
    }
}

/// Longer than the demo seed takes in a debug build on a busy machine.
const RUN_LIMIT: Duration = Duration::from_secs(120);

fn said(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn stations(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM stations")
        .fetch_one(db)
        .await
        .expect("count")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// Kills the server when the test ends, however it ends.
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[testkit::db_test]
async fn serve_refuses_the_sandbox_behind_https_unless_staging(db: PgPool) {
    let refused = run(api(&db, "serve", &PUBLIC_SANDBOX));
    assert!(!refused.status.success(), "{}", said(&refused));
    assert!(
        said(&refused).contains("FILIA_STAGING=true"),
        "{}",
        said(&refused)
    );

    seed::demo::seed(&db, "https://clube.example.com.br")
        .await
        .expect("a station to answer for");
    let port = free_port();
    let bind = format!("127.0.0.1:{port}");
    let mut env = PUBLIC_SANDBOX.to_vec();
    env.extend([("FILIA_STAGING", "true"), ("FILIA_BIND", bind.as_str())]);
    let mut serving = Serving(
        api(&db, "serve", &env)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve"),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let answer = loop {
        if let Some(status) = serving.0.try_wait().expect("wait") {
            panic!("serve stopped with {status}");
        }
        if let Some(answer) = get_config(&bind).await {
            break answer;
        }
        assert!(Instant::now() < deadline, "serve did not answer");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // It serves, and says to everyone that this is a test environment.
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let body: serde_json::Value = serde_json::from_str(body).expect(&answer);
    assert_eq!(body["test_environment"], true, "{body}");
}

/// `GET /api/config` over a plain connection: the whole answer, or `None` while nothing
/// listens.
async fn get_config(address: &str) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address).await.ok()?;
    stream
        .write_all(b"GET /api/config HTTP/1.1\r\nHost: demo.localhost\r\nConnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.ok()?;
    Some(answer)
}

#[testkit::db_test]
async fn seed_demo_refuses_an_https_public_url_unless_staging(db: PgPool) {
    let before = stations(&db).await;
    let https = [("FILIA_PUBLIC_URL", "https://clube.example.com.br")];
    let refused = run(api(&db, "seed-demo", &https));
    assert!(!refused.status.success(), "{}", said(&refused));
    assert!(
        said(&refused).contains("FILIA_STAGING=true"),
        "{}",
        said(&refused)
    );
    assert_eq!(stations(&db).await, before, "nothing was created");

    let staging = run(api(
        &db,
        "seed-demo",
        &[https[0], ("FILIA_STAGING", "true")],
    ));
    assert!(staging.status.success(), "{}", said(&staging));
    let demo: i64 =
        sqlx::query_scalar("SELECT count(*) FROM users WHERE email = 'equipe@demo.filia.com.br'")
            .fetch_one(&db)
            .await
            .expect("staff");
    assert_eq!(demo, 1);
}
