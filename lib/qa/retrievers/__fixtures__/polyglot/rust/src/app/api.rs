//! HTTP handlers of the shop.
use crate::core::store::{Record, Store};
use crate::core::util::format_key;

/// Creates the record a request describes.
pub fn handle_create(store: &mut Store, record: Record) -> String {
    store.save(record)
}

/// Returns the record a request names.
pub fn handle_lookup<'a>(store: &'a Store, name: &str) -> Option<&'a Record> {
    store.load(&format_key(name))
}
