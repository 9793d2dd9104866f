"""umaoka's Excel functions, as xlwings finds them: the one module to name.

One module serves classic xlwings (Windows: name it under "UDF Modules" in the
xlwings.conf sheet and click Import Functions), xlwings Lite (``umaoka lite DIR``
writes a self-contained main.py from the engine and the modules of
:mod:`umaoka.addin.functions`) and xlwings Server (``from umaoka.addin.udfs import *`` in
the server's ``custom_functions`` package). The functions live by area in
:mod:`umaoka.addin.functions` (settle, standings, hands, online, season); this module
lists them.

Each function only converts cells to Python values and back; every rule and every
check of scores and rulesets is the engine's. Bad input raises
:class:`UmaokaExcelError` (an ``xlwings.XlwingsError``), whose one-sentence message
Excel shows for the cell; xlwings Server returns an XlwingsError's message as is.

>>> sorted(__all__)[:3]
['MJ_EXPLAIN', 'MJ_HAND', 'MJ_HAND_TABLE']
>>> MJ_SETTLE([[35700, 32400, 22200, 9700]], "mleague")
[[55.7, 12.4, -17.8, -50.3]]
"""

from __future__ import annotations

import typing

from umaoka.addin.functions.cells import UmaokaExcelError as UmaokaExcelError
from umaoka.addin.functions.cells import excel_description as excel_description
from umaoka.addin.functions.hands import (
    MJ_HAND,
    MJ_HAND_TABLE,
)
from umaoka.addin.functions.online import (
    MJ_RANKPOINTS,
)
from umaoka.addin.functions.season import (
    MJ_SEASON,
)
from umaoka.addin.functions.settle import (
    MJ_EXPLAIN,
    MJ_PRESETS,
    MJ_RANK,
    MJ_RULESET,
    MJ_SETTLE,
    MJ_SHORTCUT,
)
from umaoka.addin.functions.standings import (
    MJ_STANDINGS,
)

#: The Excel functions (xlwings registers these; UmaokaExcelError and excel_description are
#: here for scripts that catch the one or read Excel's help text with the other).
__all__ = [
    "MJ_EXPLAIN",
    "MJ_HAND",
    "MJ_HAND_TABLE",
    "MJ_PRESETS",
    "MJ_RANK",
    "MJ_RANKPOINTS",
    "MJ_RULESET",
    "MJ_SEASON",
    "MJ_SETTLE",
    "MJ_SHORTCUT",
    "MJ_STANDINGS",
]


def _python_help() -> None:
    """Each function's whole docstring for Python's help: xlwings has taken the first
    paragraph for Excel (see :func:`_excel_function`)."""
    for name in __all__:
        function = globals()[name]
        function.__doc__ = function.__wrapped__.__doc__


_python_help()


def _errors_as_text() -> None:
    """Every argument xlwings converts (all but the ``raw`` ranges, whose Office.js error
    objects :func:`_cell` reads) gets an Excel error as its text, e.g. "#N/A": without
    ``err_to_str`` xlwings turns an error cell into None, and a #N/A would pass for an empty
    cell. Read by xlwings at each call, so set once here for every function. Off Windows
    and outside xlwings Server and Lite (no ``XLWINGS_ON_SERVER``), xlwings' decorators
    leave a function as it is, with no ``__xlfunc__``: there is nothing to set, and the
    functions are plain Python functions (``umaoka addin``, ``help(MJ_HAND)``)."""
    for name in __all__:
        xlfunc = getattr(globals()[name], "__xlfunc__", None)
        if xlfunc is None:
            continue
        for arg in xlfunc["args"]:
            if arg["options"].get("convert") != "raw":
                arg["options"]["err_to_str"] = True


_errors_as_text()


def _hints_read_once() -> None:
    """Each function's annotations as the types they name, read once here. xlwings reads
    them with ``typing.get_type_hints`` at every call (for arguments it fills in itself,
    e.g. the caller), which evaluates an annotation written as text (postponed
    annotations, as this package writes them) anew each time: a few milliseconds per
    call in xlwings Lite, a dozen for MJ_SEASON. The types are the same, so nothing else
    changes; one that cannot be read here is left as it was."""
    for name in __all__:
        function = globals()[name]
        try:
            function.__annotations__ = typing.get_type_hints(function)
        except (NameError, TypeError):
            continue


_hints_read_once()
