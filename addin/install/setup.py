"""Classic xlwings (Excel on Windows): the xlwings.conf settings and the setup steps.

``umaoka addin`` prints :func:`addin_instructions`; the league template's
``xlwings.conf`` sheet holds the rows of :func:`addin_config`.

>>> dict(addin_config())["UDF Modules"]
'umaoka.addin.udfs'
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from umaoka.engine import __version__

#: The module classic xlwings imports the Excel functions from ("UDF Modules").
UDF_MODULE = "umaoka.addin.udfs"


def _windows_interpreter() -> str | None:
    """pythonw.exe next to the running Python on Windows (no console window), else None."""
    if not sys.platform.startswith("win"):
        return None
    exe = Path(sys.executable)
    windowless = exe.with_name("pythonw.exe")
    return str(windowless if windowless.exists() else exe)


def addin_config(interpreter: str | None = None) -> list[tuple[str, str]]:
    """The xlwings.conf settings for umaoka, as (key, value) rows.

    Paste them into a sheet named ``xlwings.conf`` (column A keys, column B values) or
    into the xlwings ribbon's settings. ``Interpreter_Win`` is the given interpreter, or
    the Python running this on Windows; it is left out when unknown (xlwings then uses
    the ``python`` on the PATH).
    """
    rows = [("UDF Modules", UDF_MODULE)]
    path = interpreter or _windows_interpreter()
    if path:
        rows.append(("Interpreter_Win", path))
    return rows


def excel_functions() -> list[str]:
    """The names of every Excel function umaoka registers: :mod:`umaoka.addin.udfs` exports
    exactly the functions xlwings registers (its ``__all__``; tests/test_officejs.py checks
    it against xlwings' own metadata), so this list cannot drift from them.

    >>> excel_functions()[:3]
    ['MJ_EXPLAIN', 'MJ_HAND', 'MJ_HAND_TABLE']
    >>> "MJ_SEASON" in excel_functions() and "MJ_RANKPOINTS" in excel_functions()
    True
    """
    from umaoka.addin import udfs

    return sorted(udfs.__all__)


def addin_instructions(interpreter: str | None = None) -> str:
    """Step-by-step setup of umaoka's Excel functions with classic xlwings (Windows)."""
    names = textwrap.fill(", ".join(excel_functions()) + " are then ordinary worksheet "
                          'functions, e.g. =MJ_SETTLE(B2:E2, "mleague").', 89,
                          initial_indent="   ", subsequent_indent="   ")
    rows = addin_config(interpreter)
    width = max(len(k) for k, _ in rows)
    conf = "\n".join(f"       {k.ljust(width)}  {v}" for k, v in rows)
    if not any(k == "Interpreter_Win" for k, _ in rows):
        conf += ("\n       Interpreter_Win  (full path of the pythonw.exe that has umaoka;"
                 "\n                         leave it out if that python is on the PATH)")
    return f"""\
umaoka's Excel functions with classic xlwings (Excel on Windows)

1. Install umaoka (it brings xlwings) into the Python that Excel should use. umaoka is
   not on PyPI: in a clone of umaoka, or with a wheel built there (pip wheel -w dist .):
       pip install .            (in the clone)
       pip install umaoka-{__version__}-py3-none-any.whl   (the wheel, copied here)
2. Install the xlwings add-in into Excel (once per xlwings version):
       xlwings addin install
3. Open your workbook (the league template already has these settings) and add a sheet
   named "xlwings.conf" with these rows, key in column A, value in column B:
{conf}
   (Or type the same values into the xlwings ribbon tab: "UDF Modules", "Interpreter".)
4. Excel needs "Trust access to the VBA project object model": File > Options > Trust
   Center > Trust Center Settings > Macro Settings. Save the workbook as .xlsm.
5. Set a reference to xlwings in the workbook (xlwings' docs require it for imported
   functions): press Alt+F11 for the VBA editor, select the workbook's VBAProject, then
   Tools > References..., tick "xlwings" and click OK. Save.
6. On the xlwings ribbon tab, click "Import Functions". Click it again after upgrading
   umaoka.
{names}

No Windows? Use xlwings Lite (any Excel, no Python install): `umaoka lite DIR` writes
main.py and requirements.txt to paste into the xlwings Lite editor.
"""
