from shop.app.api import handle_lookup
from shop.core.store import Store


def test_lookup_missing():
    Store().save(type("R", (), {"name": "x"})())
    assert handle_lookup(type("Q", (), {"name": "y"})()) is None
