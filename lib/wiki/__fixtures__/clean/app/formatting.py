"""Formatting helpers."""
from app.service import parse_total


def money(value: float) -> str:
    return f"${value:.2f}"


def money_from_text(text: str) -> str:
    return money(parse_total(text))
