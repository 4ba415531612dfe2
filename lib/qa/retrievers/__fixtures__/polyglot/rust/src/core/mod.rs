//! The record store and the helpers it shares.
pub mod store;
pub mod util;
