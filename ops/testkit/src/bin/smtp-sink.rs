//! `smtp-sink --port P --dir D`: the loopback SMTP listener of the browser tests. Every
//! message the workers deliver is parsed and written to D as `NNNNNN.json`
//! (`{from, to, subject, text, html}`), which `web/e2e/mailbox.ts` reads. While a file
//! named `.unreachable` exists in D the sink refuses connections, as a mail server that is
//! down would (`smtpUnreachable()` / `smtpRestored()` in the mailbox helper).

use std::path::PathBuf;

use mail_parser::MessageParser;
use serde_json::json;

/// The file whose presence in the mailbox takes the sink off the network.
const UNREACHABLE_FLAG: &str = ".unreachable";

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let (port, dir) = arguments();
    std::fs::create_dir_all(&dir)?;
    let flag = dir.join(UNREACHABLE_FLAG);
    let (_, mut messages) =
        testkit::smtp::serve_switchable(port, "250 2.1.5 Ok", move || flag.exists(), || false)
            .await?;
    eprintln!(
        "smtp-sink: listening on 127.0.0.1:{port}, writing to {}",
        dir.display()
    );
    let mut count = 0u32;
    while let Some(captured) = messages.recv().await {
        count += 1;
        let parsed = MessageParser::default().parse(&captured.data);
        let body = json!({
            "from": captured.mail_from,
            "to": captured.rcpt_to,
            "subject": parsed.as_ref().and_then(|m| m.subject()).unwrap_or_default(),
            "text": parsed.as_ref().and_then(|m| m.body_text(0)).unwrap_or_default(),
            "html": parsed.as_ref().and_then(|m| m.body_html(0)).unwrap_or_default(),
        });
        // Written whole, then renamed, so a reader never sees half a message.
        let partial = dir.join(format!(".{count:06}.json"));
        std::fs::write(&partial, body.to_string())?;
        std::fs::rename(&partial, dir.join(format!("{count:06}.json")))?;
    }
    Ok(())
}

fn arguments() -> (u16, PathBuf) {
    let mut port = None;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next()) {
            ("--port", Some(value)) => port = value.parse().ok(),
            ("--dir", Some(value)) => dir = Some(PathBuf::from(value)),
            _ => {}
        }
    }
    match (port, dir) {
        (Some(port), Some(dir)) => (port, dir),
        _ => {
            eprintln!("usage: smtp-sink --port PORT --dir DIRECTORY");
            std::process::exit(2);
        }
    }
}
