//! The one source of random bytes for tokens and codes. Secret values themselves are
//! `secrecy::SecretString`: its `Debug` never prints them, and `expose_secret` is the one
//! way to read them (grep for it to audit where secrets flow).

/// `N` bytes from the operating system's generator.
pub fn random_bytes<const N: usize>() -> anyhow::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|err| anyhow::anyhow!("no randomness: {err}"))?;
    Ok(bytes)
}
