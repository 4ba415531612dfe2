"""Business rules over orders."""
from app.models import Order


class ValidationError(Exception):
    """Raised for an order that cannot be placed."""


_placed = []


def place(total: float) -> Order:
    """Validate and remember an order."""
    if total <= 0:
        raise ValidationError("total must be positive")
    order = Order(total)
    _placed.append(order)
    return order


def parse_total(text: str) -> float:
    """Read a total, explaining bad input."""
    try:
        return float(text)
    except ValueError as error:
        raise ValidationError(f"not a number: {text}") from error


def factorial(n: int) -> int:
    """Recursion on its own is not a cycle."""
    return 1 if n <= 1 else n * factorial(n - 1)


class Service:
    def label(self, order: Order) -> str:
        from app.formatting import money

        return money(order.total)
