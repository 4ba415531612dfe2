class Sink:
    """Where log records go."""

    def emit(self, record):
        raise NotImplementedError
