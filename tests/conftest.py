"""The test process: xlwings on its Office.js path, and a user's plain environment.

xlwings chooses its path once, when it is first imported: the Office.js one (xlwings Server
and Lite, ``xlwings.server``'s decorators, which give each function its ``__xlfunc__``)
where ``XLWINGS_ON_SERVER`` is "true", else classic xlwings on Windows, else decorators that
leave a function as it is. The tests that call the functions as Excel does
(tests/test_officejs.py, test_udfs.py, test_safety_udfs.py, test_embed.py...) need the
Office.js path in this process, so xlwings is imported here with the two variables set for
that import only (xlwings.server checks the license key as it is imported) and both are
removed at once. Nothing else sees them: every command a test runs as a subprocess gets
the user's plain environment, with no ``XLWINGS_*`` variable, and tests/test_plain_xlwings.py
imports umaoka's functions and runs ``umaoka addin`` that way, as a user on Linux or macOS
does (a bug there was hidden for as long as this file set the variables for every test).
Tests that need the Office.js path in a subprocess (tests/test_lite.py, test_pyodide.py)
set it in that subprocess's own environment.
"""

import io
import os

import pytest


def _import_xlwings_on_officejs_path() -> None:
    """Import xlwings on its Office.js path, leaving no ``XLWINGS_*`` variable behind (not
    even one of the shell that runs the tests: they stand for a user who has none)."""
    os.environ["XLWINGS_ON_SERVER"] = "true"
    os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
    try:
        import xlwings
        import xlwings.server  # noqa: F401
    finally:
        for name in [k for k in os.environ if k.startswith("XLWINGS_")]:
            del os.environ[name]
    assert xlwings.on_server, "xlwings was imported before tests/conftest.py"


_import_xlwings_on_officejs_path()


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """An 80-column terminal for the CLI's tables (what ``umaoka`` prints to a console):
    every command module's ``_console`` (each imports it by name) gives this one."""
    import importlib
    import pkgutil

    from rich.console import Console

    from umaoka.addin import cli

    out = io.StringIO()

    def fake(stderr: bool = False) -> Console:
        return Console(file=out, width=80, force_terminal=True, color_system=None,
                       highlight=False)

    for info in pkgutil.iter_modules(cli.__path__):
        module = importlib.import_module(f"{cli.__name__}.{info.name}")
        if hasattr(module, "_console"):
            monkeypatch.setattr(module, "_console", fake)
    return out
