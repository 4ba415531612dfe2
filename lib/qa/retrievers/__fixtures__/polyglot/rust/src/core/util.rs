//! Small helpers shared by the store, the API and the network client.

/// Normalizes a record name into the key it is stored under.
pub fn format_key(name: &str) -> String {
    name.trim().to_lowercase()
}
