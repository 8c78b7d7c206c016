//! A PostgreSQL cluster of a test's own: `initdb` in a temporary directory, its own port,
//! stopped, crashed and started again at the test's word. The shared server on 5432 serves
//! every other test at the same time, so a test of a database outage never touches it.
//!
//! The binaries come from the newest `/usr/lib/postgresql/*/bin` (Debian's layout, what
//! `ops/` installs). PostgreSQL refuses to run as root: under root the cluster belongs to
//! the `postgres` account and its commands run through `runuser`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

/// The account that owns the cluster when the tests run as root.
const OWNER: &str = "postgres";

/// A running (or stopped) private cluster; dropping it crashes the server and removes its
/// files.
#[derive(Debug)]
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_owner: bool,
}

impl Cluster {
    /// Creates a cluster on a free port of 127.0.0.1 (TCP only, trust authentication,
    /// superuser `postgres`) with these server settings on top of the defaults, and starts
    /// it. Panics with the tool's output when a step fails: the test cannot go on.
    pub fn start(settings: &[(&str, &str)]) -> Self {
        let as_owner = std::fs::metadata("/proc/self").is_ok_and(|me| me.uid() == 0);
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|since| since.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("filia-pg-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("cluster directory");
        if as_owner {
            run(Command::new("chown")
                .arg(format!("{OWNER}:{OWNER}"))
                .arg(&dir));
        }
        let cluster = Self {
            bin: binaries(),
            dir,
            port: free_port(),
            as_owner,
        };
        cluster.tool("initdb", |command| {
            command
                .arg("-D")
                .arg(cluster.data())
                .args(["-U", "postgres", "--auth=trust", "--no-sync"])
                .args(["-E", "UTF8", "--locale=C.UTF-8"]);
        });
        // Appended to the cluster's own file, so every restart keeps them. The disk is not
        // what these tests exercise: a crash here ends the server's processes, and what
        // they had handed to the operating system survives it, flushed or not.
        let mut conf = format!(
            "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n\
             max_connections = 200\nshared_buffers = '32MB'\n\
             fsync = off\nfull_page_writes = off\n",
            cluster.port
        );
        for (name, value) in settings {
            conf.push_str(&format!("{name} = '{value}'\n"));
        }
        let file = cluster.data().join("postgresql.conf");
        let mut text = std::fs::read_to_string(&file).expect("postgresql.conf");
        text.push_str(&conf);
        std::fs::write(&file, text).expect("settings written");
        cluster.start_again();
        cluster
    }

    /// The URL of `database` on this cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Starts the stopped server and waits until it takes connections (after a crash,
    /// once its recovery is done). Its output goes to a log file in the cluster's
    /// directory: a pipe it inherited would keep `pg_ctl` from returning.
    pub fn start_again(&self) {
        let log = self.dir.join("server.log");
        self.tool("pg_ctl", |command| {
            command
                .arg("start")
                .args(["-w", "-t", "60", "-D"])
                .arg(self.data())
                .arg("-l")
                .arg(&log);
        });
    }

    /// A clean stop (`-m fast`): sessions are ended with an error their clients read, as an
    /// operator's restart or a failover does.
    pub fn stop(&self) {
        self.pg_ctl_stop("fast");
    }

    /// A crash (`-m immediate`): the server's processes quit at once without a checkpoint,
    /// and whatever it had not handed to the operating system is lost, as a killed server
    /// loses it: the WAL of commits that did not wait for it (`synchronous_commit = off`,
    /// written by the WAL writer every `wal_writer_delay`). The next start recovers.
    pub fn crash(&self) {
        self.pg_ctl_stop("immediate");
    }

    fn pg_ctl_stop(&self, mode: &str) {
        self.tool("pg_ctl", |command| {
            command
                .args(["stop", "-w", "-t", "60", "-m", mode, "-D"])
                .arg(self.data());
        });
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Runs one of the cluster's binaries, as the owner when the tests run as root.
    fn tool(&self, name: &str, args: impl FnOnce(&mut Command)) {
        let program = self.bin.join(name);
        let mut command = if self.as_owner {
            let mut runuser = Command::new("runuser");
            runuser.args(["-u", OWNER, "--"]).arg(program);
            runuser
        } else {
            Command::new(program)
        };
        args(&mut command);
        run(&mut command);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.data().join("postmaster.pid").exists() {
            let _ = std::panic::catch_unwind(|| self.crash());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `command` to its end; panics with its output when it fails.
fn run(command: &mut Command) {
    let output = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|err| panic!("{command:?}: {err}"));
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The newest installed PostgreSQL's `bin` directory.
fn binaries() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .unwrap_or_else(|err| panic!("{}: {err} (PostgreSQL's server is needed)", root.display()))
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .expect("no /usr/lib/postgresql/*/bin/initdb")
}

/// A port nothing listens on right now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("free port")
        .port()
}
