"""``umaoka season --lang ja`` prints the game-cap Flags in Japanese, like the rest of the
report (docs/cli.md); English without it. Run as a user does (subprocess, plain env)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

UMAOKA = Path(sys.executable).with_name("umaoka")
GAMES = """date,session,table,game,east,east_score,south,south_score,west,west_score,north,north_score
2026-04-04,1,1,1,Aki,45000,Ben,30000,Chie,20000,Dan,5000
2026-04-11,2,1,1,Dan,10000,Aki,35000,Ben,30000,Chie,25000
2026-04-18,3,1,1,Aki,35000,Ben,30000,Chie,25000,Emi,10000
"""


def season(tmp_path: Path, *args: str) -> list[str]:
    result = subprocess.run([str(UMAOKA), "season", "caps.ini", "games.csv", *args],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_flags_follow_lang(tmp_path: Path) -> None:
    (tmp_path / "caps.ini").write_text("[season]\nname = Caps\nruleset = mleague\n"
                                       "game_caps = 2-3\n", encoding="utf-8")
    (tmp_path / "games.csv").write_text(GAMES, encoding="utf-8")
    en = season(tmp_path)
    assert en[-3:] == ["Flags", "-----",
                       "Caps: Emi played 1 game, fewer than the minimum of 2"]
    ja = season(tmp_path, "--lang", "ja")
    assert ja[-3:] == ["注意", "----", "Caps: Emi 1局（最少 2局 未満）"]
    assert not [line for line in ja if "played" in line or "fewer" in line]
    assert season(tmp_path, "--lang", "ja", "--stage", "Caps")[-3:] == ja[-3:]
