//! The shop: a record store, its handlers and a network client.
pub mod app;
pub mod core;
pub mod net;
