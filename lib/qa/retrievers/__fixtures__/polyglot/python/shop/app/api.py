"""HTTP handlers of the shop."""
from shop.core.store import Store
from shop.core.util import format_key


def handle_create(request):
    """Creates the record a request describes."""
    store = Store()
    return store.save(request.record)


def handle_lookup(request):
    """Returns the record a request names."""
    return Store().load(format_key(request.name))
