"""The network client: fetches remote records."""
from shop.core.util import format_key
from shop.net.codec import decode


def fetch(connection, name):
    """Fetches one remote record by name."""
    return decode(connection.get(format_key(name)))


def send(connection, payload):
    """Sends an encoded payload."""
    return connection.post(payload)
