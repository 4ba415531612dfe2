"""Middleware that reads the routing table before a request is handled."""
from .text import as_text


def allowed_methods(router, request):
    """The methods of every route that matches the request."""
    methods = []
    for route in router.routes:
        if route.match(request):
            methods.extend(route.methods)
    return methods


def dispatch(router, request):
    """The route the router picks, or None."""
    print(as_text(request.path))
    return router.match(request)
