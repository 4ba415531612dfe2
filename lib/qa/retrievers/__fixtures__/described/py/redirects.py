"""Redirect handling for outgoing requests."""


def replace_host(url, host):
    """Return a copy of the URL with another host in it."""
    scheme, _, rest = url.partition("://")
    _, slash, tail = rest.partition("/")
    return f"{scheme}://{host}{slash}{tail}"


class Redirector:
    def __init__(self, default_host):
        self.default_host = default_host
        self.hosts = {}

    def host(self, name):
        """The host a named service's redirects go to."""
        return self.hosts.get(name, self.default_host)

    def follow(self, name, url):
        if not url.startswith("http"):
            return url
        return replace_host(url, self.host(name))

    def retry_elsewhere(self, name, url):
        return replace_host(url, self.host(name))

    def describe(self, name):
        return f"{name} -> {self.host(name)}"

    def is_local(self, name):
        return self.host(name) == "localhost"
