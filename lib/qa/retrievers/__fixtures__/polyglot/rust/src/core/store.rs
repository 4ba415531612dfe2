//! The record store: keeps records by their normalized key.
use std::collections::HashMap;

use crate::core::util::format_key;

#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
}

#[derive(Default)]
pub struct Store {
    rows: HashMap<String, Record>,
}

impl Store {
    /// Persists a record in the store under its normalized key.
    pub fn save(&mut self, record: Record) -> String {
        let key = format_key(&record.name);
        self.rows.insert(key.clone(), record);
        key
    }

    /// Looks a record up by name.
    pub fn load(&self, name: &str) -> Option<&Record> {
        self.rows.get(&format_key(name))
    }
}
