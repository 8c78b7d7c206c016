//! The job platform's own work: the canary that proves the fleet runs jobs, and the
//! retention that prunes finished ones.

pub mod canary;
pub mod retention;
