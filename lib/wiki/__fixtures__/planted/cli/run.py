"""Command line entry point."""
from app.god import orchestrate


def main():
    print(orchestrate(0))
