//! A small SMTP sink on loopback: it records what a client sends and answers RCPT as the
//! test asks, so mail is tested through a real SMTP conversation.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// How often a switchable sink asks whether it should be unreachable or keep its replies.
const SWITCH_POLL: Duration = Duration::from_millis(100);

/// Asked before the reply to a message's end: true keeps the reply back.
type Holding = Arc<dyn Fn() -> bool + Send + Sync>;

/// One message as the sink received it.
#[derive(Debug)]
pub struct Captured {
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    pub data: Vec<u8>,
}

/// Starts the sink on 127.0.0.1 and returns its port and the messages it accepts. `rcpt_reply`
/// is the answer to every RCPT command. The sink lives as long as the test's runtime.
pub async fn start_sink(rcpt_reply: &'static str) -> (u16, mpsc::UnboundedReceiver<Captured>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind sink");
    serve_on(listener, rcpt_reply)
}

/// The sink on a listener the caller bound (the `smtp-sink` binary uses a fixed port).
pub fn serve_on(
    listener: TcpListener,
    rcpt_reply: &'static str,
) -> (u16, mpsc::UnboundedReceiver<Captured>) {
    let port = listener.local_addr().expect("sink address").port();
    let (sender, receiver) = mpsc::unbounded_channel();
    let holding: Holding = Arc::new(|| false);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream, rcpt_reply, sender.clone(), holding.clone()));
        }
    });
    (port, receiver)
}

/// The sink on 127.0.0.1:`port` (0 picks one), unreachable while `unreachable()` says so:
/// its listener is then closed, so a client's connection is refused as by a server that is
/// down, and it listens on the same port again once `unreachable()` turns false. Checked
/// every 100 ms; connections already open finish their conversation. While `holding()`
/// says so, a message is captured but its reply ("queued") is kept back, as a relay slow
/// to acknowledge: the client cannot know yet that the message was taken.
pub async fn serve_switchable(
    port: u16,
    rcpt_reply: &'static str,
    unreachable: impl Fn() -> bool + Send + 'static,
    holding: impl Fn() -> bool + Send + Sync + 'static,
) -> std::io::Result<(u16, mpsc::UnboundedReceiver<Captured>)> {
    let holding: Holding = Arc::new(holding);
    let first = TcpListener::bind(("127.0.0.1", port)).await?;
    let port = first.local_addr()?.port();
    let (sender, receiver) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut listener = Some(first);
        loop {
            if unreachable() {
                listener = None;
            } else if listener.is_none() {
                // A failed bind (the port briefly held elsewhere) is tried again next round.
                listener = TcpListener::bind(("127.0.0.1", port)).await.ok();
            }
            let Some(open) = &listener else {
                tokio::time::sleep(SWITCH_POLL).await;
                continue;
            };
            tokio::select! {
                accepted = open.accept() => {
                    if let Ok((stream, _)) = accepted {
                        tokio::spawn(serve(stream, rcpt_reply, sender.clone(), holding.clone()));
                    }
                }
                () = tokio::time::sleep(SWITCH_POLL) => {}
            }
        }
    });
    Ok((port, receiver))
}

/// Reads one line into `line`; false once the client has closed the connection.
async fn read_line(reader: &mut (impl AsyncBufReadExt + Unpin), line: &mut Vec<u8>) -> bool {
    line.clear();
    reader.read_until(b'\n', line).await.expect("sink read") > 0
}

async fn serve(
    stream: TcpStream,
    rcpt_reply: &str,
    captured: mpsc::UnboundedSender<Captured>,
    holding: Holding,
) {
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    let mut reply = async |line: &str| {
        writer
            .write_all(format!("{line}\r\n").as_bytes())
            .await
            .expect("sink write");
    };
    reply("220 sink.test ESMTP").await;
    let (mut mail_from, mut rcpt_to) = (String::new(), Vec::new());
    let mut line = Vec::new();
    loop {
        if !read_line(&mut reader, &mut line).await {
            return;
        }
        let command = String::from_utf8_lossy(&line).trim_end().to_string();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => reply("250 sink.test").await,
            "MAIL" => {
                mail_from = command;
                reply("250 2.1.0 Ok").await;
            }
            "RCPT" => {
                rcpt_to.push(command);
                reply(rcpt_reply).await;
            }
            "DATA" => {
                reply("354 End data with <CR><LF>.<CR><LF>").await;
                let mut data = Vec::new();
                loop {
                    if !read_line(&mut reader, &mut line).await {
                        return;
                    }
                    if line == b".\r\n" {
                        break;
                    }
                    // Undo dot-stuffing (RFC 5321 section 4.5.2).
                    let start = usize::from(line.starts_with(b".."));
                    data.extend_from_slice(&line[start..]);
                }
                let message = Captured {
                    mail_from: std::mem::take(&mut mail_from),
                    rcpt_to: std::mem::take(&mut rcpt_to),
                    data,
                };
                captured.send(message).expect("test still listening");
                while holding() {
                    tokio::time::sleep(SWITCH_POLL).await;
                }
                reply("250 2.0.0 Ok: queued").await;
            }
            "RSET" | "NOOP" => reply("250 2.0.0 Ok").await,
            "QUIT" => {
                reply("221 2.0.0 Bye").await;
                return;
            }
            _ => reply("502 5.5.2 Command not recognized").await,
        }
    }
}
