//! Real `workers` processes, one test binary (one link): killed, crashing and restarted
//! processes (`processes`), and database outages (`outage`).

mod common;
mod outage;
mod processes;
