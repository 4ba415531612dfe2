"""A module-level registry written from many places."""

_registry = {}


def register_alpha():
    _registry["alpha"] = 1


def register_beta():
    _registry["beta"] = 2


def register_gamma():
    _registry["gamma"] = 3


def reset_registry():
    global _registry
    _registry = {}


def lookup(name):
    return _registry.get(name)
