//! Runs the real fleet in the test process against the test's own database.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use domain::Config;
use jobs::fleet::{self, FleetHandle};
use jobs::{JobState, JobView, Services};
use sqlx::PgPool;

/// Services on a pool of the test's database sized as the `workers` process sizes its own
/// (`fleet::pool_beside`): the per-test pool `#[testkit::db_test]` hands out is too small for a fleet.
pub fn services(db: &PgPool, smtp_url: Option<&str>) -> Arc<Services> {
    let smtp_url = smtp_url.map(|url| ("FILIA_SMTP_URL", url));
    services_with(db, smtp_url.as_slice())
}

/// [`services`] with these settings (`FILIA_...` names and values) over the defaults.
pub fn services_with(db: &PgPool, settings: &[(&str, &str)]) -> Arc<Services> {
    let data_dir = std::env::temp_dir().join("filia-jobs-tests");
    let config = Config::from_lookup(|name| match name {
        "FILIA_DATA_DIR" => Some(data_dir.display().to_string()),
        _ => settings
            .iter()
            .find(|(setting, _)| *setting == name)
            .map(|(_, value)| value.to_string()),
    })
    .expect("configuration");
    let pool = fleet::pool_beside(db);
    Services::new(pool, config).expect("services")
}

/// The fleet with no cron schedules, so only the test's jobs run.
pub fn start_fleet(db: &PgPool) -> FleetHandle {
    fleet::spawn(services(db, None), Vec::new())
}

/// Polls the job until `done` accepts it, failing after `within`.
pub async fn wait_for(
    db: &PgPool,
    id: &str,
    within: Duration,
    done: impl Fn(&JobView) -> bool,
) -> JobView {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let view = jobs::state::find(db, id)
            .await
            .expect("query")
            .expect("job exists");
        if done(&view) {
            return view;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "job {id} still {:?} after {within:?}: {view:?}",
            view.state
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn wait_for_state(db: &PgPool, id: &str, state: JobState, within: Duration) -> JobView {
    wait_for(db, id, within, |view| view.state == state).await
}
