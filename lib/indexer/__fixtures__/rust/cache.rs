//! A tiny in-memory cache.
use std::collections::HashMap;
use std::fmt::{self, Display};
use crate::error::{Error, Result as CacheResult};

static mut HITS: u64 = 0;
const MAX_ENTRIES: usize = 1024;

/// Something that can be stored.
pub trait Entry: Clone + Send {
    fn key(&self) -> String;

    /// Size in bytes; defaults to zero.
    fn size(&self) -> usize {
        0
    }
}

/// The cache itself.
#[derive(Debug, Default)]
pub struct Cache<T: Entry> {
    items: HashMap<String, T>,
    limit: usize,
}

pub enum Lookup {
    Hit,
    Miss,
}

impl<T: Entry> Cache<T> {
    /// Creates an empty cache.
    pub fn new(limit: usize) -> Self {
        Cache { items: HashMap::new(), limit }
    }

    pub fn get(&mut self, key: &str) -> CacheResult<&T> {
        unsafe {
            HITS += 1;
        }
        self.items.get(key).ok_or(Error::NotFound)
    }

    fn insert(&mut self, value: T) -> CacheResult<()> {
        if self.items.len() >= self.limit {
            return Err(Error::Full { limit: self.limit });
        }
        let key = value.key();
        self.items.insert(key, value);
        self.limit = self.limit.max(MAX_ENTRIES);
        Ok(())
    }

    pub(crate) fn evict(&mut self) {
        let first = self.items.keys().next().cloned().expect("cache is empty");
        self.items.remove(&first);
        if self.items.is_empty() {
            panic!("evicted the last entry: {}", first);
        }
    }
}

impl<T: Entry> Display for Cache<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cache({})", self.items.len())
    }
}

fn parse_limit(raw: &str) -> Result<usize, Error> {
    fn clamp(n: usize) -> usize {
        n.min(MAX_ENTRIES)
    }
    raw.parse::<usize>().map(clamp).map_err(|e| Error::Parse(e.to_string()))
}
