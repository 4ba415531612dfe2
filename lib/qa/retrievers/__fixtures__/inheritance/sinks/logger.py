from sinks.null_sink import NullSink


def make_logger(sink=None):
    chosen = sink or NullSink()
    return lambda record: chosen.emit(record)
