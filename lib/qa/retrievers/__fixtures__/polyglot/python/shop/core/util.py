"""Small helpers shared by the store, the API and the network client."""


def format_key(name):
    """Normalizes a record name into the key it is stored under."""
    return name.strip().lower()
