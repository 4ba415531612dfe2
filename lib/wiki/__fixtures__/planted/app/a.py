"""Half of an import cycle and a call cycle."""
from app.b import pong


def ping(n: int) -> int:
    """Bounce to pong until n runs out."""
    if n <= 0:
        return 0
    return pong(n - 1)
