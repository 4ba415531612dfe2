"""Start-up: install the console sink."""
import importlib

_hooks = importlib.import_module("events.sink")


def start_console():
    """Send events to the console."""
    _hooks.install_global_sink(print)


def main():
    start_console()
