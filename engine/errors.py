"""The one exception the engine raises for bad input, and how its messages quote values."""

from typing import Any


class UmaokaError(ValueError):
    """Bad input or rules: the message is one sentence saying what is wrong and how to fix it."""


def excerpt(value: Any, limit: int = 40) -> str:
    """A value as a message quotes it: at most ``limit`` characters, with ``...`` when cut.

    >>> excerpt("x" * 100, 10)
    'xxxxxxx...'
    """
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # an int beyond Python's 4,300-digit limit for text
        return "a number of over 4,300 digits"
    # Control characters (line breaks, tabs, NUL...) shown as escapes: a message is one line.
    text = text[:limit].translate(_VISIBLE) + ("" if len(text) <= limit else "...")
    return text if len(text) <= limit else text[: limit - 3] + "..."


_VISIBLE = {c: repr(chr(c))[1:-1] for c in (*range(32), 127)}
