"""Plain data models."""
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.service import Service


class Order:
    """One order."""

    def __init__(self, total: float):
        self.total = total

    def describe(self, service: "Service") -> str:
        return service.label(self)
