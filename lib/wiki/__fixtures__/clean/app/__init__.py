"""The clean application package."""
