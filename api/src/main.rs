//! `api serve | migrate | seed-demo | openapi`.

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: api <serve|migrate|seed-demo|openapi>\n\
  serve      apply pending migrations, then serve the API and the web app\n\
  migrate    create the database if missing, apply pending migrations and exit\n\
  seed-demo  create the demo station, its accounts and its activities (idempotent)\n\
  openapi    print the API contract (OpenAPI 3.1 JSON), as committed in docs/openapi.json";

#[tokio::main]
async fn main() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".into());
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        eprintln!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    // Needs no configuration, database or logging: the contract comes from the code alone.
    if command == "openapi" {
        return match std::io::stdout().write_all(api::openapi::pretty_json().as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("could not print the contract: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match domain::infra::process::start() {
        Ok(config) => config,
        Err(exit) => return exit,
    };
    // What the payment provider needs of the configuration (a build without the sandbox
    // refuses FILIA_PAYMENTS=sandbox): exits like any other bad setting.
    if let Err(err) = payments::check(&config) {
        eprintln!("{err}");
        return ExitCode::from(2);
    }
    let outcome = match command.as_str() {
        "serve" => api::serve(config).await,
        "migrate" => migrate(&config).await,
        "seed-demo" => seed_demo(&config).await,
        other => {
            eprintln!("unknown command {other:?}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(error = %domain::infra::telemetry::Loggable(err.as_ref()), command, "failed");
            ExitCode::FAILURE
        }
    }
}

async fn migrate(config: &domain::Config) -> anyhow::Result<()> {
    domain::infra::db::create_if_missing(config).await?;
    let db = domain::infra::db::connect(config).await?;
    schema::migrate(&db).await?;
    tracing::info!("migrations applied");
    Ok(())
}

async fn seed_demo(config: &domain::Config) -> anyhow::Result<()> {
    if let Some(refusal) = config.demo_seed_refusal() {
        anyhow::bail!(refusal);
    }
    let db = domain::infra::db::connect(config).await?;
    schema::migrate(&db).await?;
    let demo = seed::demo::seed(&db, &config.public_url).await?;
    let objects = domain::infra::objects::Objects::from_config(config)?;
    seed::demo::activities::seed(&db, &objects, &demo).await?;
    seed::demo::shop::seed(&db, &objects, &demo).await?;
    seed::demo::subscriptions::seed(&db, &objects, &demo).await?;
    seed::demo::topups::seed(&db, &demo).await?;
    seed::demo::feed::seed(&db, &objects, &demo).await?;
    seed::demo::calendar::seed(&db, &objects, &demo).await?;
    seed::demo::fuel::seed(&db, &objects, &demo).await?;
    seed::demo::services::seed(&db, &objects, &demo).await?;
    seed::demo::counter::seed(&db, &demo).await?;
    seed::demo::content::seed(&db, &objects, &config.pdf_font_dir, &demo).await?;
    seed::demo::landing::seed(&db, &objects, &demo).await?;
    seed::demo::full_station::seed(&db, &config.public_url).await?;
    tracing::info!(station_id = demo.station_id, "demo station ready");
    Ok(())
}
