"""Static files served from fixed routes."""
from .routing import Route


def static_routes(paths):
    """A route for each static path."""
    return [Route.from_path(p) for p in paths]
