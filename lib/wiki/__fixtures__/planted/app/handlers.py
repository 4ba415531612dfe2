"""Many small handlers, all recording events."""
from app.hub import record_event


def handler_1():
    return record_event("handler 1")


def handler_2():
    return record_event("handler 2")


def handler_3():
    return record_event("handler 3")


def handler_4():
    return record_event("handler 4")


def handler_5():
    return record_event("handler 5")


def handler_6():
    return record_event("handler 6")


def handler_7():
    return record_event("handler 7")


def handler_8():
    return record_event("handler 8")


def handler_9():
    return record_event("handler 9")


def handler_10():
    return record_event("handler 10")


def handler_11():
    return record_event("handler 11")
