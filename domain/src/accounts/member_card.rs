//! The virtual member card (spec 002 "Profile and virtual card"): what it shows (the
//! station's logo, the QR code of `/qr-code-user-validator/{id}`, the padded member number,
//! name, CPF, birth date, the member's establishments and the last day of the current month
//! as its validity), only where the station turns it on (`stations.member_card_access`),
//! and its PDF, made by the `member_card.pdf` job and kept until the card's data changes.

use chrono::{Datelike, NaiveDate};
use sha2::{Digest, Sha256};
use sqlx::{Connection, PgConnection};

use crate::commerce::fulfilment::logo_key;
use crate::shared::cpf::Cpf;
use crate::shared::ids::{StationId, UserId};
use crate::shared::time::today_in;
use crate::stations::station;

/// 404 where the station shows no member card.
pub const MEMBER_CARD_NOT_FOUND: &str = "Carteirinha não disponível.";
/// Digits of the member number printed on the card (the spec's "padded member id").
pub const NUMBER_WIDTH: usize = 8;
/// The public page the card's QR code opens.
pub const VALIDATOR_PATH: &str = "/qr-code-user-validator";

/// The card as it is printed and shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberCard {
    pub station_name: String,
    /// The station's logo file (PNG, JPEG, WebP or GIF), filled in by the PDF job.
    pub logo: Option<Vec<u8>>,
    pub user_id: i64,
    /// The member id, zero-padded to [`NUMBER_WIDTH`] digits.
    pub number: String,
    pub name: String,
    /// "000.000.000-00", when the member has a CPF.
    pub cpf: Option<String>,
    pub birthday: Option<NaiveDate>,
    /// The names of the member's establishments, the first linked first.
    pub establishments: Vec<String>,
    /// The last day of the current month, in the station's time zone.
    pub valid_until: NaiveDate,
    /// What the QR code holds: `{station url}/qr-code-user-validator/{id}`.
    pub validator_link: String,
}

/// A member's card with what its PDF needs.
#[derive(Debug, Clone)]
pub struct Card {
    pub data: MemberCard,
    /// The station's logo as an object key, when it is one of ours.
    pub logo_key: Option<String>,
    /// Everything the PDF prints, hashed: a stored PDF with another fingerprint is stale.
    pub fingerprint: String,
}

/// The member number as the card prints it.
pub fn number(user_id: i64) -> String {
    format!("{user_id:0width$}", width = NUMBER_WIDTH)
}

/// The last day of `today`'s month: the card's validity (spec 002 section 9).
pub fn valid_until(today: NaiveDate) -> NaiveDate {
    let (year, month) = if today.month() == 12 {
        (today.year() + 1, 1)
    } else {
        (today.year(), today.month() + 1)
    };
    NaiveDate::from_ymd_opt(year, month, 1)
        .and_then(|first| first.pred_opt())
        .unwrap_or(today)
}

fn fingerprint(card: &MemberCard, logo_key: Option<&str>) -> String {
    let mut hash = Sha256::new();
    for part in [
        card.station_name.as_str(),
        logo_key.unwrap_or_default(),
        card.number.as_str(),
        card.name.as_str(),
        card.cpf.as_deref().unwrap_or_default(),
        &card.birthday.map(|d| d.to_string()).unwrap_or_default(),
        &card.establishments.join("\u{1f}"),
        &card.valid_until.to_string(),
        card.validator_link.as_str(),
    ] {
        hash.update(part.as_bytes());
        hash.update([0x1e]);
    }
    hex::encode(hash.finalize())
}

#[derive(sqlx::FromRow)]
struct Row {
    name: String,
    cpf: Option<String>,
    birthday: Option<NaiveDate>,
    establishments: Vec<String>,
}

/// The member's card, or `None` when the station shows none (or the member is not one of
/// the station's).
pub async fn card(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Option<Card>> {
    let Some(station) = station::find(&mut *conn, station_id.0).await? else {
        return Ok(None);
    };
    if !station.member_card_access {
        return Ok(None);
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT u.name, u.cpf, u.birthday,
                coalesce(array(SELECT e.full_social_name
                                 FROM user_establishments ue
                                 JOIN establishments e
                                   ON e.id = ue.establishment_id AND e.station_id = u.station_id
                                WHERE ue.user_id = u.id
                                ORDER BY ue.created_at, e.id), '{}') AS establishments
           FROM users u
          WHERE u.id = $1 AND u.station_id = $2",
    )
    .bind(user_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let data = MemberCard {
        station_name: station.name.clone(),
        logo: None,
        user_id: user_id.0,
        number: number(user_id.0),
        name: row.name,
        cpf: row
            .cpf
            .as_deref()
            .and_then(|cpf| cpf.parse::<Cpf>().ok())
            .map(|cpf| cpf.formatted()),
        birthday: row.birthday,
        establishments: row.establishments,
        valid_until: valid_until(today_in(station.zone())),
        validator_link: format!(
            "{}{VALIDATOR_PATH}/{}",
            station.url.trim_end_matches('/'),
            user_id.0
        ),
    };
    let logo_key = logo_key(&station);
    let fingerprint = fingerprint(&data, logo_key.as_deref());
    Ok(Some(Card {
        data,
        logo_key,
        fingerprint,
    }))
}

/// The key of the member's PDF made from the card with this fingerprint, if there is one.
pub async fn stored_pdf(
    conn: &mut PgConnection,
    user_id: UserId,
    fingerprint: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT pdf_key FROM member_card_pdfs WHERE user_id = $1 AND fingerprint = $2",
    )
    .bind(user_id)
    .bind(fingerprint)
    .fetch_optional(conn)
    .await
}

/// Which PDF the member has now, as a number (when the last one was made, in microseconds;
/// 0 for none): a request for a card's version after another was made is a new request,
/// even for a version made before (a name changed, then changed back).
pub async fn generation(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<i64> {
    let made: Option<i64> = sqlx::query_scalar(
        "SELECT (extract(epoch FROM made_at) * 1000000)::bigint FROM member_card_pdfs
          WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    Ok(made.unwrap_or(0))
}

/// Where a new PDF was recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The key kept: a PDF of the same card recorded first (by a racing run) wins.
    pub kept: String,
    /// The stale PDF this one replaced, to delete.
    pub replaced: Option<String>,
}

/// Records the member's PDF made from the card with `fingerprint`. Two runs racing for a
/// member with no PDF yet both find no row to lock; the second's insert then waits for the
/// first's and finds its row, which it decides on as on any stored one (kept when it is
/// the same card, else replaced and reported), so no stored file is left unreferenced.
pub async fn record_pdf(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    fingerprint: &str,
    key: &str,
) -> sqlx::Result<Recorded> {
    let mut tx = conn.begin().await?;
    let mut before = stored_for_update(&mut tx, user_id).await?;
    if before.is_none() {
        let inserted: Option<String> = sqlx::query_scalar(
            "INSERT INTO member_card_pdfs (user_id, station_id, fingerprint, pdf_key)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id) DO NOTHING
             RETURNING pdf_key",
        )
        .bind(user_id)
        .bind(station_id)
        .bind(fingerprint)
        .bind(key)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(kept) = inserted {
            tx.commit().await?;
            return Ok(Recorded {
                kept,
                replaced: None,
            });
        }
        // A racing run's row, committed meanwhile: this statement sees it.
        before = stored_for_update(&mut tx, user_id).await?;
    }
    let Some((stored_fingerprint, stored_key)) = before else {
        // The racing run's member went away between the two statements.
        return Err(sqlx::Error::RowNotFound);
    };
    if stored_fingerprint == fingerprint {
        return Ok(Recorded {
            kept: stored_key,
            replaced: None,
        });
    }
    sqlx::query(
        "UPDATE member_card_pdfs
            SET fingerprint = $2, pdf_key = $3, made_at = now()
          WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(fingerprint)
    .bind(key)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Recorded {
        kept: key.to_string(),
        replaced: Some(stored_key),
    })
}

/// The member's stored PDF (its card's fingerprint and its key), locked.
async fn stored_for_update(
    conn: &mut PgConnection,
    user_id: UserId,
) -> sqlx::Result<Option<(String, String)>> {
    sqlx::query_as(
        "SELECT fingerprint, pdf_key FROM member_card_pdfs WHERE user_id = $1 FOR UPDATE",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).expect("date")
    }

    #[test]
    fn a_card_is_valid_to_the_last_day_of_the_month() {
        assert_eq!(valid_until(date(2026, 2, 10)), date(2026, 2, 28));
        assert_eq!(valid_until(date(2028, 2, 29)), date(2028, 2, 29));
        assert_eq!(valid_until(date(2026, 12, 1)), date(2026, 12, 31));
        assert_eq!(valid_until(date(2026, 4, 30)), date(2026, 4, 30));
    }

    #[test]
    fn the_number_is_padded() {
        assert_eq!(number(42), "00000042");
        assert_eq!(number(123_456_789), "123456789");
    }

    /// Two first-time runs at once, lined up so that both find no row: the blocker's
    /// uncommitted row makes both inserts wait, and its rollback lets them race.
    async fn race(
        db: &sqlx::PgPool,
        fingerprints: [&'static str; 2],
    ) -> (Vec<String>, Vec<String>) {
        let station_id = testkit::insert_station(db, "cards").await;
        let user_id = testkit::build::member(station_id).insert(db).await;
        let mut blocker = db.begin().await.expect("blocker");
        sqlx::query(
            "INSERT INTO member_card_pdfs (user_id, station_id, fingerprint, pdf_key)
             VALUES ($1, $2, 'blocker', 'blocker.pdf')",
        )
        .bind(user_id)
        .bind(station_id)
        .execute(&mut *blocker)
        .await
        .expect("blocker row");
        let runs = fingerprints.map(|fingerprint| {
            let db = db.clone();
            tokio::spawn(async move {
                let key = format!("member-cards/{fingerprint}-{}.pdf", ulid::Ulid::generate());
                let mut conn = db.acquire().await.expect("connection");
                let recorded = record_pdf(
                    &mut conn,
                    StationId(station_id),
                    UserId(user_id),
                    fingerprint,
                    &key,
                )
                .await
                .expect("recorded");
                (key, recorded)
            })
        });
        testkit::until_waiting_for_locks(db, 2).await;
        blocker.rollback().await.expect("rollback");
        let mut made = Vec::new();
        let mut to_delete = Vec::new();
        for run in runs {
            let (key, recorded) = run.await.expect("run");
            if recorded.kept != key {
                to_delete.push(key.clone());
            }
            to_delete.extend(recorded.replaced);
            made.push(key);
        }
        let stored: Vec<String> =
            sqlx::query_scalar("SELECT pdf_key FROM member_card_pdfs WHERE user_id = $1")
                .bind(user_id)
                .fetch_all(db)
                .await
                .expect("stored");
        assert_eq!(stored.len(), 1, "{stored:?}");
        let mut accounted = [stored.clone(), to_delete.clone()].concat();
        accounted.sort();
        made.sort();
        // Every file made is either the one kept or deleted by its caller, once.
        assert_eq!(accounted, made, "stored {stored:?}, deleted {to_delete:?}");
        (stored, to_delete)
    }

    #[testkit::db_test]
    async fn racing_first_pdfs_of_one_card_keep_one_and_delete_the_other(db: sqlx::PgPool) {
        let (_, deleted) = race(&db, ["same", "same"]).await;
        assert_eq!(deleted.len(), 1);
    }

    #[testkit::db_test]
    async fn racing_first_pdfs_of_two_cards_report_the_one_replaced(db: sqlx::PgPool) {
        let (stored, deleted) = race(&db, ["old", "new"]).await;
        assert_eq!(deleted.len(), 1);
        assert_ne!(stored, deleted);
    }
}
