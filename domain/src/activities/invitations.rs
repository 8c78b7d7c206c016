//! Invitations by e-mail (spec 001 types 1 and 19, issue 14): a member invites up to five
//! addresses to join the station through the member's own invite link. Each address is
//! recorded (for the member's daily limit and so one member does not mail one address twice
//! within [`DEDUPE_DAYS`]), and the ones to mail come back as station-branded e-mails for
//! the caller to queue on the same transaction: rows and jobs land together or not at all.
//! What the client says about the inviter, the station, the link or the points is never
//! used: all of it is read here from the member's own records.

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgExecutor};

use super::ActivityType;
use super::participation::{self, Refused};
use crate::accounts::change::Mail;
use crate::accounts::mgm::InviteCode;
use crate::infra::mail::{Branding, Button, Notice, OutgoingMail};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};
use crate::shared::time::{day_start, station_zone};
use crate::shared::validate::{self, message};
use crate::stations::station;
use hex::FromHex;

/// The spec's limit of addresses per invitation, and its text past it.
pub const MAX_ADDRESSES: usize = 5;
pub const TOO_MANY_ADDRESSES: &str = "Limite de contatos alcançado";
/// Addresses a member may invite per day of the station's time zone, mailed or skipped
/// (docs/decisions.md).
pub const DAILY_LIMIT: i64 = 20;
/// One member mails one address at most once in this many days; a repeat is skipped.
pub const DEDUPE_DAYS: i64 = 30;
/// Invitations one address gets from one station's members in [`DEDUPE_DAYS`], at most:
/// however many accounts a sender makes, an address is not flooded under the brand.
pub const ADDRESS_LIMIT: i64 = 3;
pub const SUBJECT_SUFFIX: &str = "convidou você";

/// Why nothing was sent.
#[derive(Debug, thiserror::Error)]
pub enum NotSent {
    /// More than [`MAX_ADDRESSES`] addresses.
    #[error("{TOO_MANY_ADDRESSES}")]
    TooMany,
    /// A missing or malformed address: the validators' messages, each once.
    #[error("{}", .0.join(" "))]
    Invalid(Vec<String>),
    /// The addresses would take the member past [`DAILY_LIMIT`] today.
    #[error("{}", daily_limit_message(*remaining))]
    DailyLimit { remaining: i64 },
    /// The activity of `send-html-to-mails-mgp` is refused by the participation rules.
    #[error("{}", .0.message())]
    Refused(Refused),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

participation::through_the_rules!(NotSent);

impl IntoFailure for NotSent {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::Internal(err) => Failure::Internal(err),
            other => Failure::invalid(other.to_string()),
        }
    }
}

/// The spec has no text for the daily limit (docs/decisions.md).
pub fn daily_limit_message(remaining: i64) -> String {
    match remaining {
        0 => format!(
            "Você já enviou {DAILY_LIMIT} convites hoje, o limite diário. Tente novamente amanhã."
        ),
        1 => "Hoje você ainda pode convidar 1 contato.".into(),
        n => format!("Hoje você ainda pode convidar {n} contatos."),
    }
}

/// An invitation to send: the caller, and the type 1 or 19 activity it is sent from
/// (`send-html-to-mails-mgp`) or none (`send-html-to-mails-mgm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invitation<'a> {
    pub user_id: UserId,
    pub station_id: StationId,
    pub action_id: Option<ActivityId>,
    pub emails: &'a [String],
}

/// What was done. Which addresses were mailed and which skipped is not told to the member
/// (it would say who has an account or asked not to be mailed): `emails` are all the
/// addresses taken, and `mails` the e-mails to queue.
#[derive(Debug)]
pub struct Sent {
    /// The addresses taken, trimmed and lower-cased, each once, in the order sent.
    pub emails: Vec<String>,
    /// The member's invite link the e-mails carry.
    pub link: String,
    /// The points the invitee earns by joining through the link (0 without an offer).
    pub points: i32,
    /// Addresses the member may still invite today.
    pub remaining_today: i64,
    pub mails: Vec<Mail>,
}

/// Checks the list as the spec says (1 to 5 addresses, each required and valid); answers
/// the addresses trimmed, lower-cased and each once.
pub fn checked_addresses(emails: &[String]) -> Result<Vec<String>, NotSent> {
    if emails.len() > MAX_ADDRESSES {
        return Err(NotSent::TooMany);
    }
    if emails.is_empty() {
        return Err(NotSent::Invalid(vec![message::REQUIRED.into()]));
    }
    let mut messages: Vec<String> = Vec::new();
    let mut addresses: Vec<String> = Vec::new();
    for email in emails {
        let email = email.trim().to_lowercase();
        let verdict = validate::required(email.as_str()).and_then(|()| validate::email(&email));
        match verdict {
            Err(invalid) => {
                if !messages.iter().any(|known| known == invalid.message()) {
                    messages.push(invalid.message().to_string());
                }
            }
            Ok(()) if !addresses.contains(&email) => addresses.push(email),
            Ok(()) => {}
        }
    }
    if messages.is_empty() {
        Ok(addresses)
    } else {
        Err(NotSent::Invalid(messages))
    }
}

/// The SHA-256 of an address as stored (`invitation_mails`, `mail_suppressions`).
pub fn email_hash(email: &str) -> [u8; 32] {
    Sha256::digest(email.trim().to_lowercase().as_bytes()).into()
}

#[derive(Debug, sqlx::FromRow)]
struct Inviter {
    name: String,
    invite_code: Option<String>,
}

/// The points the invitee earns by signing up through an invite link: the station's active
/// member-get-member offer (what the sign-up really credits), 0 without one.
async fn invitee_points(db: impl PgExecutor<'_>, station_id: i64) -> sqlx::Result<i32> {
    let points: Option<i32> = sqlx::query_scalar(
        "SELECT points_invited FROM mgm_rules
          WHERE station_id = $1 AND active ORDER BY id DESC LIMIT 1",
    )
    .bind(station_id)
    .fetch_optional(db)
    .await?;
    Ok(points.unwrap_or(0))
}

/// The member's invite code, given one first if the account has none (accounts made before
/// codes existed); the random part is what makes a link the member's own.
async fn invite_code(
    conn: &mut PgConnection,
    user_id: i64,
    inviter: &Inviter,
) -> anyhow::Result<String> {
    if let Some(code) = &inviter.invite_code {
        return Ok(code.clone());
    }
    let code = crate::accounts::signup::new_invite_code()?;
    let stored: String = sqlx::query_scalar(
        "UPDATE users SET invite_code = coalesce(invite_code, $2) WHERE id = $1
         RETURNING invite_code",
    )
    .bind(user_id)
    .bind(&code)
    .fetch_one(conn)
    .await?;
    Ok(stored)
}

/// `{station url}/cadastrar/{code}-U{userId}-E{stationId}`, the sign-up page with the invite.
pub fn invite_link(station_url: &str, code: &str, user_id: i64, station_id: i64) -> String {
    format!(
        "{}/cadastrar/{}",
        station_url.trim_end_matches('/'),
        InviteCode::format(code, user_id, station_id)
    )
}

/// The invitation e-mail, in the station's branding.
pub fn mail(
    branding: &Branding,
    station_name: &str,
    first_name: &str,
    to: &str,
    link: &str,
    points: i32,
    unsubscribe: &str,
) -> OutgoingMail {
    let mut paragraphs = vec![format!(
        "Olá! {first_name} participa do {station_name} e convidou você para participar também."
    )];
    if points > 0 {
        paragraphs.push(format!(
            "Cadastre-se pelo link abaixo e ganhe {points} pontos."
        ));
    } else {
        paragraphs.push("Cadastre-se pelo link abaixo.".into());
    }
    paragraphs.push(format!(
        "Se você não conhece {first_name} ou não quer participar, é só ignorar este e-mail."
    ));
    paragraphs.push(format!(
        "Não quer mais receber convites do {station_name}? Acesse: {unsubscribe}"
    ));
    let notice = Notice {
        heading: format!("Você foi convidado para o {station_name}"),
        paragraphs,
        button: Some(Button {
            label: "Aceitar convite".into(),
            url: link.to_string(),
        }),
    };
    OutgoingMail::notice(
        branding,
        to,
        format!("{first_name} {SUBJECT_SUFFIX} para o {station_name}"),
        &notice,
    )
}

/// Sends an invitation on the caller's transaction (which must be rolled back on a
/// refusal, and must queue the answered `mails` before committing). The member's row is
/// locked first (the participation rules' lock, through them for an activity), so two
/// invitations at once are counted one after the other and cannot pass the daily limit
/// together. An address the member invited within [`DEDUPE_DAYS`] is taken but neither
/// mailed nor counted again; an address of a member of the station, or one that asked not
/// to be mailed, is recorded and counted but not mailed.
pub async fn send(
    conn: &mut PgConnection,
    public_url: &str,
    signing_key: &str,
    invitation: Invitation<'_>,
    now: DateTime<Utc>,
) -> Result<Sent, NotSent> {
    let emails = checked_addresses(invitation.emails)?;
    let (user, station) = (invitation.user_id, invitation.station_id);
    match invitation.action_id {
        Some(action_id) => {
            // The rules only: sending is no participation (the spec releases type 1's
            // cashback when the invitee joins), so nothing is recorded for it.
            participation::admit(
                &mut *conn,
                user,
                station,
                action_id,
                &ActivityType::INVITATIONS,
                now,
            )
            .await?;
        }
        None => participation::lock_member(&mut *conn, user).await?,
    }
    // The helpers below (and the invite code's format) read plain ids.
    let (user_id, station_id) = (user.0, station.0);
    let station = station::find(&mut *conn, station_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the member's station {station_id} is gone"))?;
    let inviter: Inviter =
        sqlx::query_as("SELECT name, invite_code FROM users WHERE id = $1 AND station_id = $2")
            .bind(user_id)
            .bind(station_id)
            .fetch_one(&mut *conn)
            .await?;

    sqlx::query("DELETE FROM invitation_mails WHERE inviter_id = $1 AND sent_at < $2")
        .bind(user_id)
        .bind(now - Duration::days(DEDUPE_DAYS))
        .execute(&mut *conn)
        .await?;
    let zone = station_zone(&mut *conn, station_id).await?;
    let today: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM invitation_mails WHERE inviter_id = $1 AND sent_at >= $2",
    )
    .bind(user_id)
    .bind(day_start(zone, now))
    .fetch_one(&mut *conn)
    .await?;
    let hashes: Vec<Vec<u8>> = emails.iter().map(|e| email_hash(e).to_vec()).collect();
    let recent: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT DISTINCT email_hash FROM invitation_mails
          WHERE inviter_id = $1 AND email_hash = ANY ($2)",
    )
    .bind(user_id)
    .bind(&hashes)
    .fetch_all(&mut *conn)
    .await?;
    let fresh: Vec<(&String, &Vec<u8>)> = emails
        .iter()
        .zip(&hashes)
        .filter(|(_, hash)| !recent.contains(hash))
        .collect();
    let fresh_count = i64::try_from(fresh.len()).unwrap_or(i64::MAX);
    let remaining = (DAILY_LIMIT - today).max(0);
    if fresh_count > remaining {
        return Err(NotSent::DailyLimit { remaining });
    }

    let fresh_emails: Vec<&str> = fresh.iter().map(|(email, _)| email.as_str()).collect();
    let members: Vec<String> =
        sqlx::query_scalar("SELECT email FROM users WHERE station_id = $1 AND email = ANY ($2)")
            .bind(station_id)
            .bind(&fresh_emails)
            .fetch_all(&mut *conn)
            .await?;
    let fresh_hashes: Vec<Vec<u8>> = fresh.iter().map(|(_, hash)| (*hash).clone()).collect();
    // Senders of one station mailing one address at once are counted one after the other:
    // a lock per address, taken in a fixed order after the member's (no two wait crosswise).
    let mut locked = fresh_hashes.clone();
    locked.sort();
    locked.dedup();
    for hash in &locked {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, $2))")
            .bind(format!(
                "invitation-address:{station_id}:{}",
                hex::encode(hash)
            ))
            .bind(0_i64)
            .execute(&mut *conn)
            .await?;
    }
    let crowded: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT email_hash FROM invitation_mails
          WHERE station_id = $1 AND email_hash = ANY ($2) AND outcome = 'mailed'
            AND sent_at >= $3
          GROUP BY email_hash HAVING count(*) >= $4",
    )
    .bind(station_id)
    .bind(&fresh_hashes)
    .bind(now - Duration::days(DEDUPE_DAYS))
    .bind(ADDRESS_LIMIT)
    .fetch_all(&mut *conn)
    .await?;
    let suppressed: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT email_hash FROM mail_suppressions
          WHERE email_hash = ANY ($1) AND (station_id IS NULL OR station_id = $2)",
    )
    .bind(&fresh_hashes)
    .bind(station_id)
    .fetch_all(&mut *conn)
    .await?;

    let code = invite_code(&mut *conn, user_id, &inviter).await?;
    let link = invite_link(&station.url, &code, user_id, station_id);
    let points = invitee_points(&mut *conn, station_id).await?;
    let first_name = sender_name(&inviter.name);
    let branding = Branding::of(&station, public_url);
    let mut mails = Vec::new();
    for (email, hash) in &fresh {
        let outcome = if members.contains(*email) {
            "member"
        } else if suppressed.contains(*hash) {
            "suppressed"
        } else if crowded.contains(*hash) {
            "address_limit"
        } else {
            "mailed"
        };
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO invitation_mails (station_id, inviter_id, action_id, email_hash, outcome, sent_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(invitation.action_id)
        .bind(hash.as_slice())
        .bind(outcome)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?;
        if outcome == "mailed" {
            mails.push(Mail {
                mail: mail(
                    &branding,
                    &station.name,
                    &first_name,
                    email,
                    &link,
                    points,
                    &unsubscribe_link(signing_key, &station.url, station_id, email),
                ),
                station_id,
                user_id: Some(user_id),
                about: ("invitation_mail", id),
            });
        }
    }
    Ok(Sent {
        emails,
        link,
        points,
        remaining_today: remaining - fresh_count,
        mails,
    })
}

/// One sign-up through the member's invite link (spec 001 "Invitation").
#[derive(Debug, Clone)]
pub struct MemberInvitation {
    pub invitee_id: UserId,
    pub name: String,
    /// When the invitee signed up.
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, sqlx::FromRow)]
struct InvitationRow {
    invitee_id: UserId,
    name: String,
    created_at: DateTime<Utc>,
}

/// The people who signed up through `user_id`'s invite link, newest first.
pub async fn of_member(
    db: impl PgExecutor<'_>,
    user_id: UserId,
) -> sqlx::Result<Vec<MemberInvitation>> {
    let rows: Vec<InvitationRow> = sqlx::query_as(
        "SELECT i.invitee_id, u.name, i.created_at
           FROM mgm_invitations i JOIN users u ON u.id = i.invitee_id
          WHERE i.inviter_id = $1
          ORDER BY i.created_at DESC, i.invitee_id DESC",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| MemberInvitation {
            invitee_id: row.invitee_id,
            name: row.name,
            created_at: row.created_at,
        })
        .collect())
}

/// Records that an address asked not to be mailed, by one station or (`None`) by all.
pub async fn suppress(
    db: impl PgExecutor<'_>,
    station_id: Option<i64>,
    email: &str,
    reason: &str,
) -> sqlx::Result<()> {
    suppress_hash(db, station_id, &email_hash(email), reason).await
}

async fn suppress_hash(
    db: impl PgExecutor<'_>,
    station_id: Option<i64>,
    hash: &[u8; 32],
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_suppressions (station_id, email_hash, reason) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
    )
    .bind(station_id)
    .bind(hash.as_slice())
    .bind(reason)
    .execute(db)
    .await?;
    Ok(())
}

/// The signature of an invitation's unsubscribe link: an HMAC of the station and the
/// address' hash under `FILIA_SIGNING_KEY`, so a link cannot be made for another address.
fn unsubscribe_mac(signing_key: &str, station_id: i64, hash: &[u8; 32]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(signing_key.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(format!("invitation-unsubscribe:{station_id}:{}", hex::encode(hash)).as_bytes());
    mac
}

/// The page an invitation links to for its addressee to get no more invitations of the
/// station: `{station url}/convites/descadastrar?s={stationId}&e={address hash}&h={mac}`.
/// The address itself is not in it, only its hash.
pub fn unsubscribe_link(
    signing_key: &str,
    station_url: &str,
    station_id: i64,
    email: &str,
) -> String {
    let hash = email_hash(email);
    let mac = unsubscribe_mac(signing_key, station_id, &hash)
        .finalize()
        .into_bytes();
    format!(
        "{}/convites/descadastrar?s={station_id}&e={}&h={}",
        station_url.trim_end_matches('/'),
        hex::encode(hash),
        hex::encode(mac)
    )
}

pub const UNSUBSCRIBE_LINK_INVALID: &str = "Link inválido.";

/// Records the unsubscribe link's address as one the station's invitations skip from now
/// on, when the link's signature holds (compared in constant time); `false` otherwise.
/// Following it again changes nothing.
pub async fn unsubscribe(
    db: impl PgExecutor<'_>,
    signing_key: &str,
    station_id: i64,
    address_hash: &str,
    signature: &str,
) -> sqlx::Result<bool> {
    let (Some(hash), Some(mac)) = (
        <[u8; 32]>::from_hex(address_hash.trim()).ok(),
        <[u8; 32]>::from_hex(signature.trim()).ok(),
    ) else {
        return Ok(false);
    };
    if unsubscribe_mac(signing_key, station_id, &hash)
        .verify_slice(&mac)
        .is_err()
    {
        return Ok(false);
    }
    suppress_hash(db, Some(station_id), &hash, "link").await?;
    Ok(true)
}

/// Who the e-mail says invites: the member's first name, as long as it reads as a name. A
/// name is the member's own text sent under the station's brand: one that looks like an
/// address (mail clients make links of `site.com/x`) or is too long to be a first name is
/// replaced, so an account cannot turn invitations into branded phishing.
pub fn sender_name(full_name: &str) -> String {
    const FALLBACK: &str = "Um amigo";
    let first = full_name.split_whitespace().next().unwrap_or_default();
    let reads_as_name = !first.is_empty()
        && first.chars().count() <= 30
        && first
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'');
    if reads_as_name {
        first.to_string()
    } else {
        FALLBACK.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(emails: &[&str]) -> Vec<String> {
        emails.iter().map(|e| (*e).to_string()).collect()
    }

    #[test]
    fn the_list_takes_one_to_five_valid_addresses() {
        assert_eq!(
            checked_addresses(&list(&[
                " Ana@Example.com ",
                "bia@example.com",
                "ana@example.com"
            ]))
            .expect("valid"),
            list(&["ana@example.com", "bia@example.com"])
        );
        let too_many = checked_addresses(&list(&["a@x.com"; 6]));
        assert!(matches!(too_many, Err(NotSent::TooMany)), "{too_many:?}");
        let none = checked_addresses(&[]);
        assert!(
            matches!(&none, Err(NotSent::Invalid(messages)) if *messages == ["Esse campo é obrigatório"]),
            "{none:?}"
        );
        let invalid = checked_addresses(&list(&["", "ana@", "bia", "ok@example.com"]));
        assert!(
            matches!(&invalid, Err(NotSent::Invalid(messages))
                if *messages == ["Esse campo é obrigatório", "Email inválido"]),
            "{invalid:?}"
        );
    }

    #[test]
    fn the_mail_carries_the_link_the_points_and_the_station() {
        let branding = Branding::new("Clube Azul", None, "#123456", "https://azul.example.com");
        let link = invite_link("https://azul.example.com/", "AB12CD34", 7, 3);
        assert_eq!(link, "https://azul.example.com/cadastrar/AB12CD34-U7-E3");
        let mail = mail(
            &branding,
            "Clube Azul",
            "Maria",
            "ana@example.com",
            &link,
            50,
            "https://azul.example.com/convites/descadastrar?s=3&e=ab&h=cd",
        );
        assert_eq!(mail.subject, "Maria convidou você para o Clube Azul");
        assert!(mail.text.contains("Não quer mais receber convites do Clube Azul? Acesse: https://azul.example.com/convites/descadastrar?s=3&e=ab&h=cd"));
        assert!(mail.text.contains(&link) && mail.html.contains(&link));
        assert!(mail.text.contains("ganhe 50 pontos"));
        assert!(mail.from.contains("Clube Azul"));
        let lines = daily_limit_message(0);
        assert!(lines.contains("20"));
    }

    #[test]
    fn the_sender_is_a_first_name_or_a_friend() {
        assert_eq!(sender_name("Maria da Silva"), "Maria");
        assert_eq!(sender_name("  José-Antônio  Lima"), "José-Antônio");
        assert_eq!(sender_name("D'Ávila"), "D'Ávila");
        for odd in [
            "pix-gratis.com/x Silva",
            "http://x.y",
            "",
            "   ",
            "Ana<b>",
            &"A".repeat(31),
        ] {
            assert_eq!(sender_name(odd), "Um amigo", "{odd}");
        }
    }
}
