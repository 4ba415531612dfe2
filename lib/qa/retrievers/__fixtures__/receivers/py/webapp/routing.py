"""Routes and the router that picks one for a request."""
import sys

from .text import as_text


class Route:
    """One path pattern and the methods it accepts."""

    def __init__(self, path, methods):
        self.path = path
        self.methods = methods

    def match(self, request):
        """Whether the request's path is this route's path."""
        return request.path.rstrip("/") == self.path.rstrip("/")

    @classmethod
    def from_path(cls, path):
        """A route for every method at a path."""
        return cls(path, ["GET", "POST"])


class Router:
    """Holds the routes and picks the first that matches."""

    def __init__(self):
        self.routes = []

    def add(self, path, methods):
        self.routes.append(Route(path, methods))

    def match(self, request):
        for route in self.routes:
            if route.match(request):
                return route
        return None

    def handle(self, request):
        """Answers a request with the page of the route that matches it."""
        name = as_text(request.path)
        route = self.match(request)
        return self._render(route, name)

    def _render(self, route, name):
        if route is None:
            return {"status": 404, "body": as_text("no route for " + name)}
        methods = ", ".join(route.methods)
        body = [
            "<h1>" + name + "</h1>",
            "<p>" + methods + "</p>",
        ]
        return {"status": 200, "body": "".join(body)}


if sys.platform == "win32":

    def route_for(path):
        """A route for a path written with backslashes."""
        return Route.from_path(path.replace("\\", "/"))

else:

    def route_for(path):
        """A route for a path as written."""
        return Route.from_path(path)
