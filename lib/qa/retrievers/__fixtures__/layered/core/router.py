"""Routing state kept on each request."""


def route_context(request):
    """The routing context stored on a request."""
    return request.context["route"]


def url_param(request, key):
    return route_context(request).params.get(key)
