"""The planted application package."""
