"""Text helpers every part of the app uses."""


def as_text(value):
    return str(value)
