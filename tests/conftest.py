"""xlwings' Office.js path (xlwings Server and Lite) is chosen when xlwings is first imported."""

import os

os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"


import io  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """An 80-column terminal for the CLI's tables (what ``umaoka`` prints to a console)."""
    from rich.console import Console

    from umaoka.addin.cli import game, tables, workbook

    out = io.StringIO()

    def console(stderr: bool = False) -> Console:
        return Console(file=out, width=80, force_terminal=True, color_system=None,
                       highlight=False)

    for module in (tables, game, workbook):  # each command group's console
        monkeypatch.setattr(module, "_console", console)
    return out
