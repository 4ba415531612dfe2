from sinks.sink import Sink


class FileSink(Sink):
    def __init__(self, path):
        self.path = path

    def emit(self, record):
        with open(self.path, "a") as out:
            out.write(record + "\n")
