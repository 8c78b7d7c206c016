//! The Rust side of `ops/bench/console`: seeds a million retained jobs and times the
//! support console's queries through the very functions the API calls (`jobs::console`).
//! Not part of the product; the script runs it on a database of its own.
//!
//! ```text
//! bench-console migrate
//!     applies the schema (schema::MIGRATOR).
//! bench-console seed <jobs>
//!     <jobs> jobs enqueued over the last 14 days (retention's default for succeeded ones)
//!     in four queues: 97% succeeded, 2% failed for good with a recorded failure, 0.5%
//!     cancelled, the rest waiting or retrying. One job in 20 among the newest 2000 is
//!     addressed to `cliente.recente@example.com`, and one in 20 of those enqueued 12 to 13
//!     days ago to `cliente.antiga@example.com`; the rest to one of 50 000 members.
//!     Prints `seconds=<wall time>`.
//! bench-console run <iterations>
//!     times the overview, a filtered list page and text searches, <iterations> times each
//!     after a warm-up. Prints one line per query: `<name> p50=<ms> p95=<ms> rows=<n>`.
//!
//! The text searches: `text-search-recent` finds its page of matches among the newest
//! jobs; `text-search-old` finds its page among jobs of 12 to 13 days ago, through the
//! list's time range as staff would narrow it; `text-search-miss` looks for a member
//! whose jobs are few and far apart, so its window (the newest
//! [`jobs::console::SCAN_WINDOW`] jobs) holds none and the page comes back empty with a
//! cursor to look further.
//! ```
//! Reads DATABASE_URL.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use domain::staff::Scope;
use jobs::JobState;
use jobs::console::{self, JobFilter};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

const USAGE: &str = "usage: bench-console migrate\n\
                     \x20      bench-console seed <jobs>\n\
                     \x20      bench-console run <iterations>";

/// Rows with the ids of a ULID for millisecond `ms` and sequence `n`, so ids sort by the
/// enqueue time like real ones; job `n` of `$1` was enqueued `n` steps into the last 14 days.
const SEED: &str = r#"
-- No NOTIFY per inserted job (nobody listens) and no other trigger: a bulk load.
SET session_replication_role = replica;

CREATE FUNCTION pg_temp.ulid_at(ms BIGINT, n BIGINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ',
               (CASE WHEN i < 10 THEN (ms >> (45 - 5 * i)) & 31
                     WHEN i < 14 THEN 0
                     ELSE (n >> (5 * (25 - i))) & 31 END)::int + 1, 1), '' ORDER BY i)
    FROM generate_series(0, 25) AS i
$$;

CREATE TEMP TABLE seed AS
SELECT n,
       pg_temp.ulid_at((extract(epoch FROM at) * 1000)::bigint, n) AS id,
       at,
       (ARRAY['canary', 'mail.send', 'points.credit', 'cashback.release'])[1 + (n % 50 > 19)::int + (n % 50 > 34)::int + (n % 50 = 49)::int] AS queue,
       CASE WHEN n % 1000 < 970 THEN 'Done'
            WHEN n % 1000 < 990 THEN 'Failed'
            WHEN n % 1000 < 995 THEN 'Killed'
            WHEN n % 1000 < 998 THEN 'Pending'
            ELSE 'RetryLater' END AS status
FROM (SELECT n, now() - interval '14 days' + (interval '14 days' * n / $1) AS at
      FROM generate_series(0, $1 - 1) AS n) s;

INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at, lock_at,
                         done_at, last_result)
SELECT id, queue,
       convert_to(json_build_object('v', 1, 'args', json_build_object(
           'key', 'bench-' || n,
           'mail', json_build_object('to', CASE
               -- A page of matches among the newest jobs, and one 12 to 13 days back.
               WHEN n % 20 = 0 AND n >= $1 - 2000 THEN 'cliente.recente@example.com'
               WHEN n % 20 = 0 AND at >= now() - interval '13 days'
                               AND at < now() - interval '12 days'
                   THEN 'cliente.antiga@example.com'
               ELSE 'membro' || (n % 50000) || '@example.com' END,
                                     'subject', 'Seu extrato de ' || to_char(at, 'DD/MM'))))::text,
           'UTF8'),
       CASE status WHEN 'RetryLater' THEN 'Failed' ELSE status END,
       CASE status WHEN 'Done' THEN 1 WHEN 'Failed' THEN 5 WHEN 'Killed' THEN 0
                   WHEN 'Pending' THEN 0 ELSE 1 END,
       5,
       CASE WHEN status IN ('Pending', 'RetryLater') THEN now() + interval '1 hour' ELSE at END,
       CASE WHEN status IN ('Done', 'Failed') THEN at END,
       CASE WHEN status IN ('Done', 'Failed', 'Killed', 'RetryLater')
            THEN at + interval '2 seconds' END,
       CASE status WHEN 'Done' THEN '{"Ok": {"written": true}}'::jsonb
                   WHEN 'Pending' THEN NULL
                   ELSE '{"Err": "O servidor de e-mail não respondeu."}'::jsonb END
FROM seed;

INSERT INTO job_failures (job_id, attempt, worker, summary, detail, failed_at)
SELECT id, 1, queue || '@bench:1#0', 'O servidor de e-mail não respondeu.',
       'smtp: connection refused (' || n || ')', at + interval '2 seconds'
FROM seed WHERE status IN ('Failed', 'RetryLater');

INSERT INTO job_records (job_id, cancelled_at, created_at)
SELECT id, at + interval '1 second', at FROM seed WHERE status = 'Killed';

RESET session_replication_role;
"#;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |index: usize, what: &str| -> anyhow::Result<i64> {
        let raw = args
            .get(index)
            .with_context(|| format!("{what} is missing\n{USAGE}"))?;
        let value: i64 = raw
            .parse()
            .with_context(|| format!("{what}: not a number: {raw}"))?;
        ensure!(value >= 1, "{what} must be at least 1");
        Ok(value)
    };
    let url = std::env::var("DATABASE_URL").context("DATABASE_URL is not set")?;
    let db = PgPoolOptions::new()
        .max_connections(2)
        .connect(&url)
        .await?;
    let out = match args.first().map(String::as_str) {
        Some("migrate") => {
            schema::migrate(&db).await?;
            "ok".to_string()
        }
        Some("seed") => seed(&db, number(1, "jobs")?).await?,
        Some("run") => run(&db, number(1, "iterations")?).await?,
        _ => bail!("{USAGE}"),
    };
    writeln!(std::io::stdout(), "{out}")?;
    Ok(())
}

async fn seed(db: &PgPool, jobs: i64) -> anyhow::Result<String> {
    let started = Instant::now();
    // A number, so written into the text: the script is several statements in one go.
    sqlx::raw_sql(sqlx::AssertSqlSafe(SEED.replace("$1", &jobs.to_string())))
        .execute(db)
        .await?;
    Ok(format!("seconds={:.1}", started.elapsed().as_secs_f64()))
}

async fn run(db: &PgPool, iterations: i64) -> anyhow::Result<String> {
    let filtered = JobFilter {
        queue: Some("mail.send".into()),
        state: Some(JobState::Failed),
        ..JobFilter::default()
    };
    let search = JobFilter {
        q: Some("membro4242@".into()),
        ..JobFilter::default()
    };
    let recent = JobFilter {
        q: Some("cliente.recente@".into()),
        ..JobFilter::default()
    };
    let now = chrono::Utc::now();
    let old = JobFilter {
        q: Some("cliente.antiga@".into()),
        from: Some(now - chrono::Duration::days(13)),
        to: Some(now - chrono::Duration::days(12)),
        ..JobFilter::default()
    };
    let mut lines = Vec::new();
    let mut conn = db.acquire().await?;
    let overview = time(iterations, async || {
        Ok(console::queues(&mut *conn, Scope::AllStations, None)
            .await?
            .len())
    })
    .await?;
    lines.push(format!("overview {overview}"));
    let list = time(iterations, async || {
        Ok(
            console::list(&mut conn, Scope::AllStations, &filtered, None, 50)
                .await?
                .jobs
                .len(),
        )
    })
    .await?;
    lines.push(format!("filtered-list {list}"));
    for (name, filter) in [
        ("text-search-recent", &recent),
        ("text-search-old", &old),
        ("text-search-miss", &search),
    ] {
        let found = time(iterations, async || {
            Ok(
                console::list(&mut conn, Scope::AllStations, filter, None, 50)
                    .await?
                    .jobs
                    .len(),
            )
        })
        .await?;
        lines.push(format!("{name} {found}"));
    }
    // Not a page: asked once when staff open the bulk re-run of a search (no target).
    let counted = time(iterations, async || {
        Ok(usize::try_from(
            console::count_rerunnable(&mut *conn, Scope::AllStations, &search).await?,
        )
        .unwrap_or(usize::MAX))
    })
    .await?;
    lines.push(format!("bulk-count {counted}"));
    Ok(lines.join("\n"))
}

/// Runs `query` three times to warm up, then `iterations` times; answers
/// `p50=<ms> p95=<ms> rows=<n>`.
async fn time(
    iterations: i64,
    mut query: impl AsyncFnMut() -> anyhow::Result<usize>,
) -> anyhow::Result<String> {
    let mut rows = 0;
    for _ in 0..3 {
        rows = query().await?;
    }
    let mut took: Vec<Duration> = Vec::new();
    for _ in 0..iterations {
        let started = Instant::now();
        rows = query().await?;
        took.push(started.elapsed());
    }
    took.sort();
    let at = |share: f64| {
        let index = ((took.len() as f64 * share).ceil() as usize).clamp(1, took.len()) - 1;
        took[index].as_secs_f64() * 1000.0
    };
    Ok(format!(
        "p50={:.1} p95={:.1} rows={rows}",
        at(0.5),
        at(0.95)
    ))
}
