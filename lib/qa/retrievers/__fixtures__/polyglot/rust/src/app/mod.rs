//! HTTP handlers and background jobs.
pub mod api;
pub mod worker;
