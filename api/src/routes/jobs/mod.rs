//! Jobs (platform, not business): the state of a job a member owns.

pub mod state;
