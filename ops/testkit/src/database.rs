//! A database of its own for every `#[testkit::db_test]`, cloned from a migrated template.
//!
//! Migrating an empty database takes 1-2 s and ~50 migrations; `CREATE DATABASE .. TEMPLATE`
//! takes 0.2 s. So each schema version (a hash of the migrations' checksums) is migrated
//! once into a template, named after the `DATABASE_URL` database (several clones of the
//! repository share the server, each with its own `DATABASE_URL`), under an advisory lock
//! so the test processes nextest starts at once build it once. A test's database is named
//! after its path, dropped first if a previous run left it (a failed test keeps its
//! database for a look), and dropped when the test passes.

use std::future::Future;
use std::str::FromStr;
use std::time::Duration;

use sha2::{Digest, Sha256};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgSslMode};
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection, PgPool};

/// PostgreSQL's limit on a database name, in bytes.
const NAME_LIMIT: usize = 63;

/// Runs `test` on a fresh database of its own on a current-thread runtime, as
/// `#[sqlx::test]` did: `test_path` names the database, the pool holds at most 5
/// connections.
pub fn run<F, Fut>(test_path: &str, test: F)
where
    F: FnOnce(PgPool) -> Fut,
    Fut: Future<Output = ()>,
{
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("test runtime")
        .block_on(async {
            let server = Server::from_env();
            let database = server.clone_template(test_path).await;
            let pool = PgPoolOptions::new()
                .max_connections(5)
                // Close idle connections soon, so the database can be dropped at the end.
                .idle_timeout(Some(Duration::from_secs(1)))
                .connect_with(server.options.clone().database(&database))
                .await
                .expect("test pool");
            // A panic ends the test here and keeps the database for a look.
            test(pool.clone()).await;
            if tokio::time::timeout(Duration::from_secs(10), pool.close())
                .await
                .is_err()
            {
                eprintln!("test {test_path} held onto its pool after it ended");
            }
            server.drop_database(&database).await;
        });
}

/// The server behind `DATABASE_URL` and the prefix of every database made for its tests.
struct Server {
    options: PgConnectOptions,
    prefix: String,
}

impl Server {
    fn from_env() -> Self {
        let url = std::env::var("DATABASE_URL").expect("DATABASE_URL must be set for tests");
        let mut options = PgConnectOptions::from_str(&url).expect("DATABASE_URL");
        // On this machine's own server, TLS buys nothing and its handshake (about 90 ms in a
        // debug build) was a sixth of a short test: three connections or more each. A URL or
        // PGSSLMODE that asks for a mode keeps it.
        let loopback = matches!(options.get_host(), "localhost" | "::1")
            || options.get_host().starts_with("127.");
        if loopback && !url.contains("sslmode=") && std::env::var_os("PGSSLMODE").is_none() {
            options = options.ssl_mode(PgSslMode::Disable);
        }
        let base = options.get_database().unwrap_or("postgres");
        // Room for the longest suffix, `_tpl_<16 hex>_new` (the per-test one is shorter).
        // PostgreSQL's limit is in bytes: cut on a character boundary within it.
        let mut end = base.len().min(NAME_LIMIT - 25);
        while !base.is_char_boundary(end) {
            end -= 1;
        }
        let prefix = base[..end].to_owned();
        Self { options, prefix }
    }

    /// An administrative connection to the `DATABASE_URL` database.
    async fn admin(&self) -> PgConnection {
        PgConnection::connect_with(&self.options)
            .await
            .expect("connection to DATABASE_URL")
    }

    /// Creates the test's database from the template of the current schema: its name.
    async fn clone_template(&self, test_path: &str) -> String {
        let mut admin = self.admin().await;
        let template = self.template(&mut admin).await;
        let database = self.test_database_name(test_path);
        execute(
            &mut admin,
            &format!("DROP DATABASE IF EXISTS \"{database}\" WITH (FORCE)"),
        )
        .await;
        execute(
            &mut admin,
            &format!("CREATE DATABASE \"{database}\" TEMPLATE \"{template}\""),
        )
        .await;
        close(admin).await;
        database
    }

    async fn drop_database(&self, database: &str) {
        let mut admin = self.admin().await;
        execute(
            &mut admin,
            &format!("DROP DATABASE IF EXISTS \"{database}\" WITH (FORCE)"),
        )
        .await;
        close(admin).await;
    }

    /// The migrated template of the current schema, made if missing: its name. Built under
    /// a different name and renamed when complete, so a build cut short is never cloned.
    async fn template(&self, admin: &mut PgConnection) -> String {
        let prefix = format!("{}_tpl_", self.prefix);
        let template = format!("{prefix}{}", schema_version());
        if exists(admin, &template).await {
            return template;
        }
        let lock = lock_key(&prefix);
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(lock)
            .execute(&mut *admin)
            .await
            .expect("template lock");
        if !exists(admin, &template).await {
            let building = format!("{template}_new");
            execute(
                admin,
                &format!("DROP DATABASE IF EXISTS \"{building}\" WITH (FORCE)"),
            )
            .await;
            execute(admin, &format!("CREATE DATABASE \"{building}\"")).await;
            let mut connection =
                PgConnection::connect_with(&self.options.clone().database(&building))
                    .await
                    .expect("connection to the template being built");
            schema::MIGRATOR
                .run(&mut connection)
                .await
                .expect("template migrated");
            close(connection).await;
            execute(
                admin,
                &format!("ALTER DATABASE \"{building}\" RENAME TO \"{template}\""),
            )
            .await;
            // Older schema versions' templates: nothing clones them any more.
            let older: Vec<String> = sqlx::query_scalar(
                "SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2",
            )
            .bind(&prefix)
            .bind(&template)
            .fetch_all(&mut *admin)
            .await
            .expect("older templates");
            for name in older {
                execute(
                    admin,
                    &format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"),
                )
                .await;
            }
        }
        sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(lock)
            .execute(&mut *admin)
            .await
            .expect("template unlock");
        template
    }

    /// `<prefix>_t_<hash>_<test name>`: unique per test path and `DATABASE_URL`, readable
    /// in `\l`, within PostgreSQL's 63 bytes.
    fn test_database_name(&self, test_path: &str) -> String {
        let hash = hex(&Sha256::digest(test_path.as_bytes())[..4]);
        let name = test_path.rsplit("::").next().unwrap_or(test_path);
        let mut database = format!("{}_t_{hash}_", self.prefix);
        let room = NAME_LIMIT.saturating_sub(database.len());
        database.extend(
            name.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                .take(room),
        );
        database
    }
}

/// The schema's version: a hash of every migration's version and checksum.
fn schema_version() -> String {
    let mut hasher = Sha256::new();
    for migration in schema::MIGRATOR.iter() {
        hasher.update(migration.version.to_le_bytes());
        hasher.update(&*migration.checksum);
    }
    hex(&hasher.finalize()[..8])
}

/// The advisory lock that serialises building templates with this prefix.
fn lock_key(prefix: &str) -> i64 {
    let digest = Sha256::digest(prefix.as_bytes());
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&digest[..8]);
    i64::from_le_bytes(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

async fn exists(admin: &mut PgConnection, database: &str) -> bool {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
        .bind(database)
        .fetch_one(&mut *admin)
        .await
        .expect("pg_database")
}

/// Runs a statement built from names this module made (never from input).
async fn execute(connection: &mut PgConnection, statement: &str) {
    connection
        .execute(AssertSqlSafe(statement.to_owned()))
        .await
        .unwrap_or_else(|error| panic!("{statement}: {error}"));
}

async fn close(connection: PgConnection) {
    if let Err(error) = connection.close().await {
        eprintln!("closing a test connection: {error}");
    }
}
