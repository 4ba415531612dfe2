//! Encoding of records on the wire.
use crate::net::client::send;

/// Decodes a wire payload into a record name.
pub fn decode(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Encodes a record and sends it.
pub fn encode_and_send(post: impl Fn(&[u8]) -> usize, record: &str) -> usize {
    send(post, record.as_bytes())
}
