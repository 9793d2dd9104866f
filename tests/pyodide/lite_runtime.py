"""xlwings Lite's Python side, done the way its runtime does it (run inside Pyodide by runner.mjs).

The runtime is open source: xlwings/xlwings-server, ``xlwings_server/wasm/wasm_runtime.py``
(read at commit 88620030ee48643d4eff789728cc3aecf302be38, Aug 2026, https://github.com/
xlwings/xlwings-server/blob/88620030ee48643d4eff789728cc3aecf302be38/xlwings_server/wasm/
wasm_runtime.py; the official Lite add-in's variant is the same file at commit 3cf707979cc4,
"bring wasm/main.py in line with lite", then named ``wasm/main.py``, whose calls go to a
module ``main_editor``), with ``wasm/config.py`` and ``static/js/wasm.js``:

- ``config.py`` sets ``XLWINGS_ON_SERVER=true`` before xlwings is first imported, so ``xw.func``
  is xlwings' Office.js decorator.
- ``create_module_from_string(module_string, "main")``: ``importlib.util.module_from_spec(
  importlib.util.spec_from_loader("main", loader=None))``, then ``exec(module_string,
  module.__dict__)``, and only then ``sys.modules["main"] = module``. A failure is caught and
  logged as "Parsing error": Excel then gets no functions at all.
- ``custom_functions_meta(module_string)`` and ``custom_functions_code(module_string)`` each
  execute main.py afresh that way; the second finds the first one's module in sys.modules.
- ``custom_functions_call(data)``: ``data.to_py()`` (JS ``null`` becomes ``None`` up to Pyodide
  0.27 and ``pyodide.ffi.jsnull`` from 0.28 on), then ``await xlwings.server.
  custom_functions_call(data, module=..., typehint_to_value={Caller: caller})`` (``Caller`` in
  xlwings 0.37.8+ only); any exception becomes ``{"error": str(e), "details": traceback}``; the
  result goes back through ``to_js(result, dict_converter=js.Object.fromEntries)``.

This file is this project's own restatement of those steps, not a copy of that code.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
import zipfile

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

# As wasm/config.py, before xlwings is imported: the runtime's settings (its wasm/.env, written
# by xlwings-server's create_wasm_settings) carry a license key; the free one is "noncommercial".
os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

#: Top-level modules that belong to one wheel set (or to main.py) and go when the set changes.
_OWNED = ("xlwings", "mahjong", "main")
_site: str | None = None


def use_wheels(name: str, wheel_paths: list[str]) -> dict[str, str]:
    """Make the wheels of one set importable (as micropip would), forgetting any other set.

    Each set is unpacked into its own folder on sys.path, so one Pyodide can try the floor
    and the newest versions in turn; "main" is forgotten too, so the next load of main.py
    finds nothing in sys.modules, as in a freshly started runtime.
    """
    global _site
    for module in list(sys.modules):
        if module.split(".")[0] in _OWNED:
            del sys.modules[module]
    if _site in sys.path:
        sys.path.remove(_site)
    _site = f"/wheelsets/{name}"
    os.makedirs(_site, exist_ok=True)
    for path in wheel_paths:
        with zipfile.ZipFile(path) as wheel:
            wheel.extractall(_site)
    sys.path.insert(0, _site)
    importlib.invalidate_caches()
    import mahjong  # noqa: F401
    import xlwings

    versions = {"xlwings": xlwings.__version__}
    for dist in os.listdir(_site):
        if dist.startswith("mahjong-") and dist.endswith(".dist-info"):
            versions["mahjong"] = dist[len("mahjong-"):-len(".dist-info")]
    return versions


def create_module_from_string(module_string: str, module_name: str):
    """The runtime's way of loading main.py: a fresh module, registered only afterwards."""
    spec = importlib.util.spec_from_loader(module_name, loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(module_string, module.__dict__)
    sys.modules[module_name] = module
    return module


def register(module_string: str):
    """What the runtime does when main.py changes: custom_functions_meta, then _code.

    Returns ``{"error": ...}`` where the runtime would log a "Parsing error" and register
    nothing, else the functions' names with their parameter counts and the JavaScript code
    it would associate.
    """
    import xlwings.server

    try:
        meta = xlwings.server.custom_functions_meta(create_module_from_string(module_string,
                                                                              "main"))
        module = create_module_from_string(module_string, "main")
    except Exception:
        return to_js({"error": traceback.format_exc()}, dict_converter=js.Object.fromEntries)
    code = "".join(f'CustomFunctions.associate("{name.upper()}", {name});\n'
                   for name in dir(module) if hasattr(getattr(module, name), "__xlfunc__"))
    functions = {f["name"]: len(f["parameters"]) for f in meta["functions"]}
    return to_js({"functions": functions, "code": code}, dict_converter=js.Object.fromEntries)


async def custom_functions_call(data):
    """One call from Excel, as the runtime's custom_functions_call makes it."""
    import xlwings as xw
    import xlwings.server

    data = data.to_py()
    kwargs = {}
    caller_type = getattr(xlwings.server, "Caller", None)
    if caller_type is not None:  # xlwings 0.37.8+: a Caller argument for functions that ask
        try:
            caller = xlwings.server.caller_from_address(data.get("caller_address"))
        except xw.XlwingsError:
            caller = None
        kwargs["typehint_to_value"] = {caller_type: caller}
    try:
        result = await xlwings.server.custom_functions_call(data, module=sys.modules["main"],
                                                            **kwargs)
    except Exception as e:
        result = {"error": str(e), "details": traceback.format_exc()}
    return to_js(result, dict_converter=js.Object.fromEntries)
