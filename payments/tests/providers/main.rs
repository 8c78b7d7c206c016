//! The payment providers' integration tests, one binary (one link): Pagar.me against a
//! loopback stand-in of its documented API, and the sandbox (only in a build that has it).

mod pagarme;
#[cfg(feature = "sandbox")]
mod sandbox;
