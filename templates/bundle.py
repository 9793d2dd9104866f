"""The bundled ``league_template.xlsx`` and a content fingerprint to keep it up to date.

xlsx files are zips with timestamps, so the test compares a fingerprint of the content
(cells, formulas, styles' number formats, names, validations, tables, layout) of the
bundled file with that of a freshly generated one. Regenerate with
``python -m umaoka.templates.bundle``.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from umaoka.templates.book.model import Book, make_book
from umaoka.templates.build import build_workbook
from umaoka.templates.xlsx.io import load_quietly
from umaoka.templates.xlsx.writer import save_fast

BUNDLED = Path(__file__).with_name("league_template.xlsx")


def default_book() -> Book:
    """What the bundled template holds: one league on the standard ruleset, no players."""
    return make_book(["standard"], ["League"], [], "en")


def _describe(wb: Workbook) -> dict[str, Any]:
    out: dict[str, Any] = {
        "sheets": [],
        "names": sorted((n, d.attr_text) for n, d in wb.defined_names.items()),
        "fullCalcOnLoad": bool(wb.calculation.fullCalcOnLoad),
    }
    for ws in wb.worksheets:
        cells = []
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if v is None and c.number_format == "General":
                    continue
                if hasattr(v, "ref") and hasattr(v, "text"):
                    v = ["array", v.ref, v.text]
                cells.append([c.coordinate, repr(v), c.data_type, c.number_format,
                              bool(c.protection.locked)])
        out["sheets"].append({
            "title": ws.title,
            "state": ws.sheet_state,
            "cells": cells,
            "merged": sorted(str(r) for r in ws.merged_cells.ranges),
            "validations": sorted([str(dv.sqref), dv.type or "", dv.formula1 or ""]
                                  for dv in ws.data_validations.dataValidation),
            "tables": sorted((t.name, t.ref) for t in ws.tables.values()),
            "freeze": ws.freeze_panes,
            "protected": bool(ws.protection.sheet),
            "conditional": sorted(str(r.sqref) for r in ws.conditional_formatting),
            "widths": sorted((k, round(d.width or 0, 2), bool(d.hidden))
                             for k, d in ws.column_dimensions.items()),
            "charts": len(ws._charts),
            "print_titles": ws.print_title_rows,
        })
    return out


def fingerprint(source: Path | Workbook) -> str:
    """A hash of a workbook's content (independent of zip timestamps)."""
    if isinstance(source, Workbook):
        buffer = io.BytesIO()
        save_fast(source, buffer)  # type: ignore[arg-type]
        buffer.seek(0)
        wb = load_quietly(buffer)
    else:
        wb = load_quietly(source)
    text = json.dumps(_describe(wb), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def build_default() -> Workbook:
    return build_workbook(default_book())


def write_bundled(path: Path = BUNDLED) -> Path:
    save_fast(build_default(), path)
    return path


if __name__ == "__main__":  # pragma: no cover
    print(f"wrote {write_bundled()}")
