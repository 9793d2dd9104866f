"""The one exception the engine raises for bad input, and how its messages quote values."""

from typing import Any


class UmaokaError(ValueError):
    """Bad input or rules: the message is one sentence saying what is wrong and how to fix it."""


def excerpt(value: Any, limit: int = 40) -> str:
    """A value as a message quotes it: at most ``limit`` characters, with ``...`` when cut.

    >>> excerpt("x" * 100, 10)
    'xxxxxxx...'
    """
    text = as_text(value)
    # Control characters (line breaks, tabs, NUL...) shown as escapes: a message is one line.
    text = text[:limit].translate(_VISIBLE) + ("" if len(text) <= limit else "...")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_text(value: Any) -> str:
    """``str(value)``, never an error: an int beyond Python's 4,300-digit limit for text
    (which ``str`` refuses with ValueError) is named in words.

    >>> as_text(10**5000), as_text(25000)
    ('a number of over 4,300 digits', '25000')
    """
    try:
        return value if isinstance(value, str) else str(value)
    except ValueError:
        return "a number of over 4,300 digits"


def as_repr(value: Any) -> str:
    """``repr(value)``, never an error (see :func:`as_text`)."""
    try:
        return repr(value)
    except ValueError:
        return "a value holding a number of over 4,300 digits"


_VISIBLE = {c: repr(chr(c))[1:-1] for c in (*range(32), 127)}
