//! The network client: fetches remote records.
use crate::core::util::format_key;
use crate::net::codec::decode;

/// Fetches one remote record by name.
pub fn fetch(get: impl Fn(&str) -> Vec<u8>, name: &str) -> String {
    decode(&get(&format_key(name)))
}

/// Sends an encoded payload.
pub fn send(post: impl Fn(&[u8]) -> usize, payload: &[u8]) -> usize {
    post(payload)
}
