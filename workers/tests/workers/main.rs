//! Real `workers` processes, one test binary (one link): killed, crashing and restarted
//! processes (`processes`), database outages (`outage`), and a subscription's renewal whose
//! worker is killed between the provider's charge and its record (`renewals`).

mod common;
mod outage;
mod processes;
mod renewals;
