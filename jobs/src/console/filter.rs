//! The console's filter as the queries take it: the staff's fields, bound as SQL parameters
//! (an enqueue-time range becomes a range of ULIDs, a search a literal LIKE pattern), and a
//! page's cursor.

use chrono::{DateTime, Utc};
use domain::staff::Scope;
use serde::Serialize;

use crate::state::JobState;

/// The payload as the console shows and searches it: the envelope's `args` without what
/// may hold a secret. An e-mail's body (`mail.text`, `mail.html` of
/// [`crate::kinds::MailSend`]) carries activation codes and password-reset links; removing
/// a path a payload lacks changes nothing. One definition for the detail and the search,
/// so nothing hidden can be found by guessing it.
macro_rules! shown_payload {
    () => {
        "((convert_from(j.job, 'UTF8')::jsonb -> 'args') #- '{mail,text}' #- '{mail,html}')"
    };
}

/// What the list, the bulk re-run and their counts filter on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct JobFilter {
    pub queue: Option<String>,
    pub state: Option<JobState>,
    /// Enqueued at or after.
    pub from: Option<DateTime<Utc>>,
    /// Enqueued at or before.
    pub to: Option<DateTime<Utc>>,
    /// Found, ignoring case, in the shown payload, the last result or any failure.
    pub q: Option<String>,
    pub station_id: Option<i64>,
}

/// The filter's WHERE: `$1`..`$6` are the filter's fields (see [`Bound`]), `$7` the scope's
/// station. An unowned job has no station, so a one-station scope never sees it.
macro_rules! filter_where {
    () => {
        concat!(
            " WHERE ($1::text IS NULL OR j.job_type = $1)
              AND ($2::text IS NULL OR ",
            job_state!(),
            " = $2)
              AND ($3::text IS NULL OR j.id >= $3)
              AND ($4::text IS NULL OR j.id < $4)
              AND ($5::text IS NULL
                   OR (",
            shown_payload!(),
            ")::text ILIKE $5
                   OR j.last_result::text ILIKE $5
                   OR EXISTS (SELECT 1 FROM job_failures s
                              WHERE s.job_id = j.id AND (s.summary ILIKE $5 OR s.detail ILIKE $5)))
              AND ($6::bigint IS NULL OR r.station_id = $6)
              AND ($7::bigint IS NULL OR r.station_id = $7) "
        )
    };
}

/// A filter as SQL parameters. ULIDs sort by their time, so the enqueue-time range is a
/// range of ids (the primary key), not a scan.
pub(super) struct Bound {
    pub(super) queue: Option<String>,
    pub(super) state: Option<JobState>,
    pub(super) from_id: Option<String>,
    pub(super) to_id: Option<String>,
    pub(super) pattern: Option<String>,
    pub(super) station_id: Option<i64>,
    pub(super) scope: Option<i64>,
}

impl Bound {
    pub(super) fn new(filter: &JobFilter, scope: Scope) -> Self {
        Self {
            queue: filter.queue.clone(),
            state: filter.state,
            from_id: filter.from.map(|at| first_id_at(at.timestamp_millis())),
            to_id: filter
                .to
                .map(|at| first_id_at(at.timestamp_millis().saturating_add(1))),
            pattern: filter.q.as_deref().map(like_pattern),
            station_id: filter.station_id,
            scope: scope.station_id(),
        }
    }

    pub(super) fn bind<'q, O>(
        self,
        query: sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments>,
    ) -> sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments> {
        query
            .bind(self.queue)
            .bind(self.state)
            .bind(self.from_id)
            .bind(self.to_id)
            .bind(self.pattern)
            .bind(self.station_id)
            .bind(self.scope)
    }
}

/// The smallest ULID of a millisecond: every job enqueued at or after it sorts at or after.
fn first_id_at(millis: i64) -> String {
    // ULIDs hold 48 bits of milliseconds since the epoch; clamp what lies outside.
    let millis = u64::try_from(millis).unwrap_or(0).min((1 << 48) - 1);
    ulid::Ulid::from_parts(millis, 0).to_string()
}

/// `text` found anywhere, with LIKE's wildcards taken literally.
fn like_pattern(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 2);
    escaped.push('%');
    for c in text.chars() {
        if matches!(c, '\\' | '%' | '_') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped.push('%');
    escaped
}

/// A page's cursor as the list reads it: a job id (a ULID), or `None` when it is not one.
pub fn cursor(text: &str) -> Option<String> {
    ulid::Ulid::from_string(text).ok().map(|id| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_wildcards_are_taken_literally() {
        assert_eq!(like_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }

    #[test]
    fn the_first_id_of_a_millisecond_sorts_before_every_job_of_it() {
        let at = 1_700_000_000_123;
        let first = first_id_at(at);
        let job = ulid::Ulid::from_parts(at as u64, 42).to_string();
        let earlier = ulid::Ulid::from_parts(at as u64 - 1, u128::MAX).to_string();
        assert!(first <= job && earlier < first);
        assert_eq!(first_id_at(-5), ulid::Ulid::from_parts(0, 0).to_string());
    }
}
