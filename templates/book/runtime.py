"""Which add-in runtime a league workbook is written for, and how its formulas name the add-in.

A formula is stored in the file the way Excel *saves* it, and Excel binds a function name
only in that form:

* **xlwings Lite** and **xlwings Server** register Office.js custom functions. Excel saves a
  call to one as ``_xldudf_NAME(`` and, when the add-in loads, resolves that name to the
  add-in's function; a namespace ``NS.F`` is saved with the dot as ``_``
  (``_xldudf_NS_F(``). A plain ``MJ_SETTLE(`` in the file is an unknown name that stays
  ``#NAME?`` after the add-in loads, until each cell is entered again (impossible on a
  protected sheet).
* **classic xlwings** imports VBA functions into the workbook: plain ``MJ_SETTLE(``.

Evidence (kept here because Excel itself cannot be run in our tests):

* Microsoft on the saved prefix: "For Javascript Custom Functions, we by default save out
  with a different prefix ``_xldudf``" and ``_xll.`` for XLL functions -
  https://github.com/OfficeDev/Excel-Custom-Functions/issues/108
* ``_xldudf_`` names show until the add-in's manifest is parsed, then Excel changes them to
  the real names and calculates - https://github.com/OfficeDev/office-js/issues/3558 ,
  also https://github.com/OfficeDev/office-js/issues/3740 and /issues/5611
* plain names entered before the add-in loads stay ``#NAME?``; no workaround on protected
  sheets - https://github.com/OfficeDev/office-js/issues/6611
* dots of a function's name become ``_`` in the saved form -
  https://github.com/OfficeDev/office-js/issues/877 ; public workbooks saved by Excel hold
  e.g. ``_xldudf_WISEPRICE(B1,"Shares Outstanding")`` (no namespace) and
  ``_xldudf_CX_GET(...)`` (namespace ``CX``)
* a namespace is optional - https://github.com/OfficeDev/Excel-Custom-Functions/issues/189 ;
  xlwings Lite registers its functions without one (its docs: ``@func def hello`` is typed
  as ``=HELLO("World")`` - https://lite.xlwings.org/custom_functions );
  xlwings Server puts them under ``XLWINGS`` unless ``XLWINGS_FUNCTIONS_NAMESPACE`` says
  otherwise (xlwings-server: ``functions_namespace: str = "XLWINGS"`` in
  ``xlwings_server/config.py``, ``<Namespace resid="Functions.Namespace"/>`` upper-cased in
  ``templates/manifest.xml``; docs/custom_functions.md "Default namespace"), and appends
  the environment when it is not ``prod``: the manifest's namespace is
  ``{{ settings.functions_namespace|upper }}_{{ settings.environment|upper }}``.
  ``xlwings-server init`` writes ``XLWINGS_ENVIRONMENT="dev"`` into the project's ``.env``
  (``xlwings_server/.env.template``), and its quick start types ``=XLWINGS_DEV.HELLO(...)``:
  a server set up as its docs say registers ``XLWINGS_DEV.MJ_SETTLE``, saved as
  ``_xldudf_XLWINGS_DEV_MJ_SETTLE(``. That is the default here; ``XLWINGS`` is the
  namespace of a server run with ``XLWINGS_ENVIRONMENT="prod"`` (docs/runtimes.md).

>>> Runtime("lite").call("MJ_SETTLE")
'_xldudf_MJ_SETTLE'
>>> Runtime("server", "xlwings").call("MJ_SETTLE")
'_xldudf_XLWINGS_MJ_SETTLE'
>>> Runtime("server", "XLWINGS_DEV").call("MJ_SETTLE")
'_xldudf_XLWINGS_DEV_MJ_SETTLE'
>>> Runtime("classic").call("MJ_SETTLE")
'MJ_SETTLE'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from umaoka.engine import UmaokaError

RUNTIMES = ("lite", "classic", "server")
DEFAULT_RUNTIME = "lite"
#: xlwings Server's namespace for custom functions as ``xlwings-server init`` sets a project
#: up: XLWINGS_FUNCTIONS_NAMESPACE (default XLWINGS) plus ``_DEV`` for its
#: XLWINGS_ENVIRONMENT="dev" (see above); ``XLWINGS`` with XLWINGS_ENVIRONMENT="prod".
SERVER_NAMESPACE = "XLWINGS_DEV"
#: What a workbook without a runtime entry (umaoka 0.1) was written for: plain names.
LEGACY_RUNTIME = "classic"
#: Office.js namespaces: letters, digits and dots (xlwings Server also allows "_").
_NAMESPACE = re.compile(r"[A-Za-z][A-Za-z0-9_.]{0,31}")
#: A call of one of umaoka's functions in any saved form: ``MJ_SETTLE(``,
#: ``_xldudf_MJ_SETTLE(``, ``_xldudf_XLWINGS_MJ_SETTLE(``.
ADDIN_CALL = re.compile(r"(?<![A-Za-z0-9_.])((?:_xldudf_)?(?:[A-Za-z0-9]+_)*?)(MJ_[A-Z_]+)\(")

NAMES = {"lite": "xlwings Lite", "classic": "classic xlwings", "server": "xlwings Server"}


@dataclass(frozen=True)
class Runtime:
    """The add-in runtime a workbook targets; ``namespace`` only for xlwings Server."""

    kind: str = DEFAULT_RUNTIME
    namespace: str = ""

    @property
    def prefix(self) -> str:
        """What goes before a function's name in the saved formula."""
        if self.kind == "classic":
            return ""
        ns = self.namespace.upper().replace(".", "_") if self.kind == "server" else ""
        return "_xldudf_" + (ns + "_" if ns else "")

    def call(self, function: str) -> str:
        """The saved name of one of umaoka's functions, e.g. ``_xldudf_MJ_SETTLE``."""
        return self.prefix + function

    @property
    def title(self) -> str:
        """``xlwings Lite``, ``classic xlwings``, ``xlwings Server (namespace XLWINGS_DEV)``."""
        name = NAMES[self.kind]
        if self.kind == "server":
            name += f" (namespace {self.namespace.upper()})" if self.namespace else ""
        return name

    def meta(self) -> list[Any]:
        """The row of the workbook's ``_umaoka`` sheet that records the runtime."""
        return ["runtime", self.kind, self.namespace]


def runtime(kind: str | None = None, namespace: str | None = None) -> Runtime:
    """A runtime from command-line words, with one-line errors.

    >>> runtime("server").title
    'xlwings Server (namespace XLWINGS_DEV)'
    >>> runtime("server", "XLWINGS").title
    'xlwings Server (namespace XLWINGS)'
    >>> runtime("server", "").call("MJ_RANK")
    '_xldudf_MJ_RANK'
    """
    kind = (kind or DEFAULT_RUNTIME).strip().lower()
    if kind not in RUNTIMES:
        raise UmaokaError(f'runtime "{kind}" is unknown; use one of {", ".join(RUNTIMES)}.')
    if kind != "server":
        if namespace:
            raise UmaokaError("a namespace is for --runtime server only (xlwings Lite and "
                              "classic xlwings register the functions without one).")
        return Runtime(kind)
    ns = SERVER_NAMESPACE if namespace is None else namespace.strip()
    if ns and not _NAMESPACE.fullmatch(ns):
        raise UmaokaError(f'namespace "{ns}" is not valid; use letters, digits, dots and '
                          'underscores, starting with a letter (e.g. XLWINGS_DEV or XLWINGS), '
                          'or "" for none.')
    return Runtime("server", ns)


def from_meta(row: list[Any] | None) -> Runtime:
    """The runtime recorded in a workbook's ``_umaoka`` sheet (none recorded: classic)."""
    if not row or len(row) < 2 or str(row[1] or "").lower() not in RUNTIMES:
        return Runtime(LEGACY_RUNTIME)
    kind = str(row[1]).lower()
    ns = str(row[2] or "") if kind == "server" and len(row) > 2 else ""
    return Runtime(kind, ns)


def addin_calls(formula: str) -> list[str]:
    """The saved names of umaoka functions called in a formula, e.g. ``['_xldudf_MJ_SETTLE']``.

    >>> addin_calls('=IFERROR(_xldudf_MJ_SETTLE(A1:D1),"")')
    ['_xldudf_MJ_SETTLE']
    """
    return [m.group(1) + m.group(2) for m in ADDIN_CALL.finditer(formula)]
