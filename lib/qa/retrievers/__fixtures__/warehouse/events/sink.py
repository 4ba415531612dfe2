"""The process-wide sink events go to."""

_sink = None


def install_global_sink(sink):
    """Install the sink every event goes to, once."""
    global _sink
    if _sink is not None:
        raise RuntimeError("a global sink is already installed")
    _sink = sink
