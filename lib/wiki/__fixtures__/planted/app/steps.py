"""Small steps the orchestrator strings together."""


def step_1(value):
    """Step 1."""
    return value + 1


def step_2(value):
    """Step 2."""
    return value + 2


def step_3(value):
    """Step 3."""
    return value + 3


def step_4(value):
    """Step 4."""
    return value + 4


def step_5(value):
    """Step 5."""
    return value + 5


def step_6(value):
    """Step 6."""
    return value + 6


def step_7(value):
    """Step 7."""
    return value + 7


def step_8(value):
    """Step 8."""
    return value + 8


def step_9(value):
    """Step 9."""
    return value + 9


def step_10(value):
    """Step 10."""
    return value + 10


def step_11(value):
    """Step 11."""
    return value + 11


def step_12(value):
    """Step 12."""
    return value + 12


def step_13(value):
    """Step 13."""
    return value + 13


def step_14(value):
    """Step 14."""
    return value + 14
