//! Background jobs that import records in bulk.
use crate::core::store::{Record, Store};

/// Saves every record of a batch.
pub fn run_batch(store: &mut Store, records: Vec<Record>) -> usize {
    let count = records.len();
    for record in records {
        store.save(record);
    }
    count
}
