from shop.app.api import handle_create
from shop.core.store import Store
from shop.core.util import format_key


def test_save_normalizes_key():
    assert Store().save(type("R", (), {"name": " A "})()) == format_key("a")


def test_handle_create():
    assert handle_create(type("Q", (), {"record": type("R", (), {"name": "b"})()})()) == "b"
