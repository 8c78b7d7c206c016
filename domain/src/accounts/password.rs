//! Password hashing (argon2id) and the spec's password rule.

use std::sync::atomic::{AtomicUsize, Ordering};

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// The spec's validator message for a password that breaks the rule.
pub const RULE_MESSAGE: &str = "Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20.";

/// An uppercase letter, a lowercase letter, a digit, and 8 to 20 characters.
pub fn meets_rule(password: &str) -> bool {
    (8..=20).contains(&password.chars().count())
        && password.chars().any(char::is_uppercase)
        && password.chars().any(char::is_lowercase)
        && password.chars().any(|c| c.is_ascii_digit())
}

/// An argon2id PHC string with a fresh random salt.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|err| anyhow::anyhow!("hashing a password: {err}"))
}

const PERMITS: u32 = 4;

/// At most four argon2 runs at once, process-wide: each call takes a core and 19 MiB for tens of
/// milliseconds, so a burst of sign-ups or logins queues rather than starving the server.
/// Callers hold no database connection or transaction while they wait here: a queue behind
/// the hasher must not become a queue for the pool.
static HASHERS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(PERMITS as usize);

/// Calls of [`hash_off_thread`] and [`verify_off_thread`] not finished yet, waiting included.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// Counts one call in [`IN_FLIGHT`] while it lives.
struct InFlight;

impl InFlight {
    fn start() -> Self {
        IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
        Self
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How many hashes and checks this process has started and not finished, those waiting for
/// the hasher included.
pub fn in_flight() -> usize {
    IN_FLIGHT.load(Ordering::SeqCst)
}

/// Takes every hasher permit until the guard drops, so the hasher looks saturated: tests
/// use it to see what a request holds while it waits for the hasher.
pub async fn saturate() -> anyhow::Result<tokio::sync::SemaphorePermit<'static>> {
    Ok(HASHERS.acquire_many(PERMITS).await?)
}

/// [`hash`] on the blocking pool, behind the process-wide permits: what handlers call.
pub async fn hash_off_thread(password: String) -> anyhow::Result<String> {
    let _counted = InFlight::start();
    let _permit = HASHERS.acquire().await?;
    tokio::task::spawn_blocking(move || hash(&password)).await?
}

/// [`verify`] on the blocking pool, behind the process-wide permits.
pub async fn verify_off_thread(password: String, stored: Option<String>) -> anyhow::Result<bool> {
    let _counted = InFlight::start();
    let _permit = HASHERS.acquire().await?;
    Ok(tokio::task::spawn_blocking(move || verify(&password, stored.as_deref())).await?)
}

/// Checks a password against a stored hash. With no stored hash it still spends the time of
/// a real check, so response times do not reveal which accounts exist.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash("timing-equaliser").unwrap_or_default());
    let candidate = stored.unwrap_or(dummy);
    let Ok(parsed) = PasswordHash::new(candidate) else {
        return false;
    };
    Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
        && stored.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_of_the_spec() {
        assert!(meets_rule("Membro123"));
        assert!(!meets_rule("membro123"), "no uppercase");
        assert!(!meets_rule("MEMBRO123"), "no lowercase");
        assert!(!meets_rule("MembroDemo"), "no digit");
        assert!(!meets_rule("Ab1"), "too short");
        assert!(!meets_rule("Abcdefghij1234567890x"), "21 characters");
    }

    #[test]
    fn hashes_verify_only_the_right_password() {
        let stored = hash("Membro123").expect("hash");
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify("Membro123", Some(&stored)));
        assert!(!verify("membro123", Some(&stored)));
        assert!(!verify("Membro123", None));
    }
}
