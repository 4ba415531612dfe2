//! The network client.
pub mod client;
pub mod codec;
