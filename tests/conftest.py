"""xlwings' Office.js path (xlwings Server and Lite) is chosen when xlwings is first imported."""

import os

os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"


import io  # noqa: E402

import pytest  # noqa: E402


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
