//! The `smtp-sink` binary of the browser tests: it writes each message it receives as JSON
//! in its mailbox, and refuses connections while a `.unreachable` file is there.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep};

/// Longer than the sink's 100 ms polling, however loaded the test machine.
const SWITCH_DEADLINE: Duration = Duration::from_secs(5);

/// A running `smtp-sink` with its own mailbox; killed and cleaned up when dropped.
struct Sink {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Sink {
    fn start() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_nanos();
        let dir =
            std::env::temp_dir().join(format!("smtp-sink-test-{}-{nanos}", std::process::id()));
        // A port the system just handed out and nothing else holds.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|probe| probe.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(env!("CARGO_BIN_EXE_smtp-sink"))
            .args(["--port", &port.to_string(), "--dir"])
            .arg(&dir)
            .stderr(Stdio::null())
            .spawn()
            .expect("smtp-sink starts");
        Self { child, port, dir }
    }

    fn flag(&self) -> PathBuf {
        self.dir.join(".unreachable")
    }

    /// Whether a connection is accepted (and greeted), or refused.
    async fn reachable(&self) -> bool {
        match TcpStream::connect(("127.0.0.1", self.port)).await {
            Ok(stream) => {
                let mut greeting = String::new();
                BufReader::new(stream)
                    .read_line(&mut greeting)
                    .await
                    .expect("greeting");
                assert!(greeting.starts_with("220 "), "{greeting}");
                true
            }
            Err(err) if err.kind() == ErrorKind::ConnectionRefused => false,
            Err(err) => panic!("unexpected connection error: {err}"),
        }
    }

    async fn wait_until_reachable(&self, wanted: bool) {
        let deadline = Instant::now() + SWITCH_DEADLINE;
        while self.reachable().await != wanted {
            assert!(
                Instant::now() < deadline,
                "the sink is still {} after {SWITCH_DEADLINE:?}",
                if wanted { "refusing" } else { "accepting" },
            );
            sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One message through a whole SMTP conversation, each reply checked.
async fn send_mail(port: u16, to: &str, subject: &str) {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    let mut reply = String::new();
    let mut expect_reply = async |code: &str| {
        reply.clear();
        reader.read_line(&mut reply).await.expect("reply");
        assert!(reply.starts_with(code), "expected {code}, got {reply}");
    };
    expect_reply("220").await;
    let data =
        format!("From: equipe@filia.test\r\nTo: {to}\r\nSubject: {subject}\r\n\r\nOlá!\r\n.\r\n");
    for (line, code) in [
        ("EHLO test\r\n".to_string(), "250"),
        ("MAIL FROM:<equipe@filia.test>\r\n".to_string(), "250"),
        (format!("RCPT TO:<{to}>\r\n"), "250"),
        ("DATA\r\n".to_string(), "354"),
        (data, "250"),
        ("QUIT\r\n".to_string(), "221"),
    ] {
        writer.write_all(line.as_bytes()).await.expect("write");
        expect_reply(code).await;
    }
}

async fn wait_for_file(path: &Path) -> serde_json::Value {
    let deadline = Instant::now() + SWITCH_DEADLINE;
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            return serde_json::from_str(&text).expect("the message is JSON");
        }
        assert!(Instant::now() < deadline, "no {} in time", path.display());
        sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn the_unreachable_flag_refuses_connections_until_it_is_removed() {
    let sink = Sink::start();
    sink.wait_until_reachable(true).await;

    std::fs::write(sink.flag(), b"").expect("write the flag");
    sink.wait_until_reachable(false).await;
    // It stays down while the flag is there.
    sleep(Duration::from_millis(300)).await;
    assert!(!sink.reachable().await);

    std::fs::remove_file(sink.flag()).expect("remove the flag");
    sink.wait_until_reachable(true).await;

    // Back on the same port, it delivers to the mailbox as before.
    send_mail(sink.port, "membro@filia.test", "Depois da volta").await;
    let mail = wait_for_file(&sink.dir.join("000001.json")).await;
    assert_eq!(mail["subject"], "Depois da volta");
    assert!(
        mail["to"][0]
            .as_str()
            .is_some_and(|rcpt| rcpt.contains("<membro@filia.test>"))
    );
}
