"""Work in progress."""


def estimate(items):
    # TODO: handle empty input
    total = 0
    for item in items:
        # FIXME: prices can be negative
        total += item
    # TODO: round to cents
    # XXX: currency is ignored
    return total
