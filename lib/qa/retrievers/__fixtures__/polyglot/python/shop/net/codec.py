"""Encoding of records on the wire."""
from shop.net.client import send


def decode(data):
    """Decodes a wire payload into a record."""
    return data.decode("utf-8")


def encode_and_send(connection, record):
    """Encodes a record and sends it."""
    return send(connection, str(record).encode("utf-8"))
