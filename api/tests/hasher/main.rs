//! The tests that hold the process-wide password hasher (`domain::accounts::password`):
//! a binary of their own, so no other test's hashing shares it, and one at a time.

#[path = "../api/common/mod.rs"]
mod common;

mod login_throttle;
mod password_pool;

/// One test at a time: each saturates or holds the one hasher of this process and counts
/// its calls.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
