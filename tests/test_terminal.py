"""Terminal tables fit 80 columns without cutting numbers, and get every column when wide."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from umaoka.addin import cli


def test_demo_standings_fit_80_columns(tmp_path: Path, screen: io.StringIO):
    assert cli.main(["demo", str(tmp_path), "--games", "60"]) == 0
    lines = screen.getvalue().splitlines()
    assert lines and all(len(line) <= 80 for line in lines), max(map(len, lines))
    assert "…" not in screen.getvalue()  # no number or name cut short
    header = next(line for line in lines if "Player" in line)
    for column in ("#", "Player", "Games", "Total", "Avg", "Place", "1st", "4th"):
        assert column in header
    totals = [re.findall(r"[+-]\d+\.\d", line) for line in lines]
    assert any(t for t in totals)  # whole signed totals such as +429.0, not "+4…"


def test_piped_output_keeps_every_column(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # with COLUMNS set, the table fits it
    assert cli.main(["demo", str(tmp_path), "--games", "60"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if "Player" in line)
    for column in ("Top", "No last", "Best", "Worst"):
        assert column in header
