"""Tries the home page once from the command line."""
from webapp.retry import Retry


def main():
    retry = Retry(3)
    retry = retry.increment("http://localhost/")
    print(retry.total)
