//! Staff: the support console's API, mounted at `/api/ops`.

pub mod ops;
