"""The ``umaoka`` command: ``app`` parses and dispatches; one module per command group.

``workbook`` (new, demo, add, runtime, settle, batch), ``game`` (presets, calc, hand,
rankpoints), ``season``, ``league`` (seating, import, stats) and ``excel`` (addin, lite);
``base`` and ``tables`` are what they share.
"""

from umaoka.addin.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
