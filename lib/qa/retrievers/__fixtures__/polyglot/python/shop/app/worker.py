"""Background jobs that import records in bulk."""
from shop.core.store import Store


def run_batch(records):
    """Saves every record of a batch."""
    store = Store()
    for record in records:
        store.save(record)
    return len(records)
