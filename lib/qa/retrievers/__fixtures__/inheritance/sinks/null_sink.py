from sinks.sink import Sink


class NullSink(Sink):
    def emit(self, record):
        return None
