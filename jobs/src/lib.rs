//! Background job kinds, one module each: its payload type, its queue name, the function
//! that enqueues it inside the caller's transaction, and its handler. The job platform
//! (apalis on PostgreSQL) and the first kinds arrive with issue 3; the `workers` binary
//! registers whatever this crate exports.
