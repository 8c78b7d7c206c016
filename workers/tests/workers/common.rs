//! What the process tests share: a real `workers` process on a database of the test's
//! choosing, and a wait for a condition.

#![allow(dead_code)]

use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Worker {
    pub child: Child,
    log: PathBuf,
}

impl Worker {
    /// A `workers` process on `database_url` with the cron schedules off (a tick would add
    /// to a test's counts) and these settings on top.
    pub fn start(database_url: &str, env: &[(&str, &str)]) -> Self {
        let log = std::env::temp_dir().join(format!("filia-worker-{}.log", ulid::Ulid::generate()));
        let mut command = Command::new(env!("CARGO_BIN_EXE_workers"));
        command
            .env("DATABASE_URL", database_url)
            .env("FILIA_CRON_CANARY", "off")
            .env("FILIA_CRON_JOBS_RETENTION", "off")
            .env("FILIA_CRON_CASHBACK_DISPATCH", "off")
            .env("FILIA_CRON_SANDBOX_DELIVER", "off")
            .env("FILIA_LOG", "warn")
            .env("FILIA_DB_MAX_CONNECTIONS", "8")
            .stdout(Stdio::from(File::create(&log).expect("log file")))
            .stderr(Stdio::null());
        for (name, value) in env {
            command.env(name, value);
        }
        Self {
            child: command.spawn().expect("start workers"),
            log,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Panics, with the process' log, if it has ended.
    pub fn assert_alive(&mut self, when: &str) {
        if let Some(status) = self.child.try_wait().expect("wait") {
            panic!(
                "the worker process ended ({status}) {when}:\n{}",
                self.log()
            );
        }
    }

    pub fn terminate(&mut self) -> std::process::ExitStatus {
        self.ask_to_stop();
        self.wait_stopped()
    }

    /// Sends SIGTERM without waiting (to stop several processes at the same moment).
    pub fn ask_to_stop(&self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
    }

    /// Waits for the process asked to stop to exit (40 s at most).
    pub fn wait_stopped(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(40);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "worker ignored SIGTERM:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Polls `probe` every 100 ms until it answers; panics after `within`.
pub async fn eventually<T>(
    within: Duration,
    what: &str,
    mut probe: impl AsyncFnMut() -> Option<T>,
) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(value) = probe().await {
            return value;
        }
        assert!(Instant::now() < deadline, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
