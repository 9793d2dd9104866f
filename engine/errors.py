"""The one exception the engine raises for bad input."""


class UmaokaError(ValueError):
    """Bad input or rules: the message is one sentence saying what is wrong and how to fix it."""
