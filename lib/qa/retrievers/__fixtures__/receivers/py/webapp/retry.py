"""How many times a request may be tried again."""


class Retry:
    """The retries left; each failure makes a new one with one fewer."""

    def __init__(self, total):
        self.total = total

    def increment(self, url):
        """The retries left after a failed request to url."""
        if self.total <= 0:
            raise RuntimeError("no retries left for " + url)
        return Retry(self.total - 1)
