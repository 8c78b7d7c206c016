//! The demo station `api seed-demo` creates (`demo`): its accounts, catalogue, shop, feed
//! and orders, made through the rules in `domain`. Idempotent: a second run changes nothing.

pub mod demo;
