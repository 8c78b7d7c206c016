//! Log setup shared by the API and the workers: one line per event, with the fields of the
//! enclosing spans (the API's request span carries the request id).

use tracing_subscriber::EnvFilter;

use crate::infra::config::{Config, LogFormat};

pub fn init_logging(config: &Config) {
    let filter = EnvFilter::try_new(&config.log_filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true);
    // Ignoring the error keeps a second init (tests, subcommands) harmless.
    let _ = match config.log_format {
        LogFormat::Json => builder
            .json()
            .with_current_span(false)
            .with_span_list(true)
            .try_init(),
        LogFormat::Text => builder.compact().try_init(),
    };
}

/// An error as the logs (and the job failures kept for staff) show it: its chain of causes,
/// except that a database error is shown by its SQLSTATE code, constraint and table only.
/// PostgreSQL's message and detail quote the data ("Key (email)=(maria@...) already exists",
/// `invalid input syntax for type bigint: "..."`), which is personal data.
#[derive(Debug)]
pub struct Loggable<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Loggable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut link = Some(self.0);
        // A wrapper may repeat the database's message in its own text.
        let withheld = chain(self.0)
            .find_map(database_error)
            .map(|db| db.message());
        let mut first = true;
        while let Some(err) = link {
            if !first {
                f.write_str(": ")?;
            }
            first = false;
            if let Some(db) = database_error(err) {
                // Its causes are the database's message again.
                return write!(
                    f,
                    "database error {} (constraint {}, table {})",
                    db.code().as_deref().unwrap_or("?"),
                    db.constraint().unwrap_or("-"),
                    db.table().unwrap_or("-"),
                );
            }
            let text = err.to_string();
            match withheld {
                Some(message) if !message.is_empty() => {
                    f.write_str(&text.replace(message, "[database message withheld]"))?
                }
                _ => f.write_str(&text)?,
            }
            link = err.source();
        }
        Ok(())
    }
}

fn chain<'a>(
    err: &'a (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'a (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(err), |err| err.source())
}

fn database_error<'a>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a dyn sqlx::error::DatabaseError> {
    if let Some(sqlx::Error::Database(db)) = err.downcast_ref::<sqlx::Error>() {
        return Some(db.as_ref());
    }
    err.downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .map(|db| db as &dyn sqlx::error::DatabaseError)
}

#[cfg(test)]
mod tests {
    use super::Loggable;

    #[derive(Debug, thiserror::Error)]
    #[error("outer: {0}")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn errors_other_than_the_database_keep_their_chain() {
        let err = Outer(std::io::Error::other("disk full"));
        assert_eq!(Loggable(&err).to_string(), "outer: disk full: disk full");
    }
}
