"""The record store: keeps records by their normalized key."""
from shop.core.util import format_key


class Store:
    def __init__(self):
        self.rows = {}

    def save(self, record):
        """Persists a record in the store under its normalized key."""
        key = format_key(record.name)
        self.rows[key] = record
        return key

    def load(self, name):
        """Looks a record up by name."""
        return self.rows.get(format_key(name))
