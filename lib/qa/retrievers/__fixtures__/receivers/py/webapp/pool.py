"""Opens a URL, trying again while retries are left."""


def urlopen(url, fetch, **kw):
    """Fetches url, asking the retries given for another try after each failure."""
    retries = kw.get("retries")
    while True:
        try:
            return fetch(url)
        except OSError:
            retries = retries.increment(url)
