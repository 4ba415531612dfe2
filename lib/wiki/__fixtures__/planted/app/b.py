"""The other half of the cycles."""
from app.a import ping


def pong(n: int) -> int:
    """Bounce back to ping."""
    if n <= 0:
        return 1
    return ping(n - 1)
