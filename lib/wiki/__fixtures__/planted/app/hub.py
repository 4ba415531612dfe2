"""Event logging everyone uses."""

EVENTS = []


def record_event(message):
    """Remember one event."""
    EVENTS.append(message)
    return len(EVENTS)
