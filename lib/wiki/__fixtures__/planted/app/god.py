"""One function that does everything."""
from app.steps import step_1, step_2, step_3, step_4, step_5, step_6, step_7, step_8, step_9, step_10, step_11, step_12, step_13, step_14


def orchestrate(value):
    """Run every step in turn."""
    value = step_1(value)
    value = step_2(value)
    value = step_3(value)
    value = step_4(value)
    value = step_5(value)
    value = step_6(value)
    value = step_7(value)
    value = step_8(value)
    value = step_9(value)
    value = step_10(value)
    value = step_11(value)
    value = step_12(value)
    value = step_13(value)
    value = step_14(value)
    return value
