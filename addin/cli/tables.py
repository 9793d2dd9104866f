"""Terminal tables that fit: columns are dropped by priority, numbers are never cut.

A standings table has more columns than an 80-column terminal holds. Rather than let
rich squeeze every column into ``+3…``, :func:`fit` builds the table, measures it, and
leaves out the least important columns until it fits; names are shortened only as a
last resort. Piped output is not a terminal and gets the full table.

Names come from strangers (online lobbies) and files: every CLI text that may hold one
goes through :func:`shown` (plain ``print``) or :func:`markup` (rich), so an escape
sequence in a name is written out (``\\x1b]0;...``) instead of acting on the terminal,
and ``[bold]`` in a name is shown as it is, not read as rich markup.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table

from umaoka.engine.online.imported import visible


def shown(text: object) -> str:
    """``text`` for a plain terminal line: control characters written out as ``\\x1b``.

    >>> print(shown(chr(27) + "]0;OWNED" + chr(7) + chr(27) + "[2J Aki"))
    \\x1b]0;OWNED\\x07\\x1b[2J Aki
    """
    return visible(str(text))


def markup(text: object) -> str:
    """``text`` for rich: :func:`shown`, with rich markup escaped (``[bold]`` stays text).

    >>> print(markup("[bold]Aki"))
    \\[bold]Aki
    """
    return escape(shown(text))


@dataclass(frozen=True)
class Column:
    """One column: its header, alignment, and how much it matters (0 = always shown)."""

    header: str
    justify: str = "right"
    priority: int = 0
    #: the column that may shorten its texts with "…" when nothing else can go
    elastic: bool = False


def fit(console: Console, title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]],
        style: Callable[[int, str], str] | None = None, wide: bool = False) -> Table:
    """The widest table of ``rows`` that fits the console: low-priority columns go first.

    ``rows`` hold plain texts (their width is what is measured); ``style(column, text)``
    may wrap a text in rich markup (colour) after measuring. With ``wide`` every column
    is kept whatever the width.
    """
    rows = [[shown(t) for t in r] for r in rows]
    keep = list(range(len(columns)))
    dropped = sorted((i for i, c in enumerate(columns) if c.priority),
                     key=lambda i: (-columns[i].priority, -i))
    while True:
        table = _table(title, columns, rows, keep, style)
        if wide or not dropped or _width(console, table) <= console.width:
            return table
        keep.remove(dropped.pop(0))


def _table(title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]],
           keep: list[int], style: Callable[[int, str], str] | None) -> Table:
    table = Table(title=markup(title), box=box.SIMPLE_HEAD, header_style="bold", title_style="bold",
                  pad_edge=False, padding=(0, 1), collapse_padding=True)
    for i in keep:
        c = columns[i]
        # cell_len: a Japanese header or name takes two columns a character
        longest = max([cell_len(c.header)] + [cell_len(r[i]) for r in rows])
        table.add_column(c.header, justify=c.justify,  # type: ignore[arg-type]
                         no_wrap=True, overflow="ellipsis",
                         min_width=min(longest, 6) if c.elastic else longest)
    for r in rows:
        table.add_row(*((style(i, escape(r[i])) if style else escape(r[i])) for i in keep))
    return table


def _width(console: Console, table: Table) -> int:
    """The width the table takes when nothing is squeezed (rendered off screen)."""
    probe = Console(width=10_000, file=io.StringIO(), color_system=None, highlight=False)
    lines = probe.render_lines(table, probe.options, pad=False)
    return max((Segment.get_line_length(line) for line in lines), default=0)


def console(stderr: bool = False) -> Any:
    """A console for tables: the terminal's width. Output that is not a terminal (a pipe,
    a file) takes ``COLUMNS`` when it is set (``COLUMNS=80 umaoka demo > out.txt`` fits 80
    columns), else 160 columns: every column is kept."""
    out = Console(stderr=stderr, highlight=False)
    if not out.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        out = Console(stderr=stderr, highlight=False, width=max(out.width, 160))
    return out


#: The name the commands use (tests put an 80-column screen in its place).
_console = console


def _fmt(v: Any) -> str:
    if isinstance(v, Decimal):
        return f"{v:+}" if v else "0"
    return str(v)


def _fmt_row(values: Sequence[Any]) -> list[str]:
    """Numbers side by side in one format: every Decimal with the same decimals and a sign."""
    places = max((-int(v.as_tuple().exponent) for v in values  # type: ignore[arg-type]
                  if isinstance(v, Decimal)), default=0)
    out = []
    for v in values:
        if isinstance(v, Decimal):
            out.append(f"{v:+.{places}f}" if v else f"{0:.{places}f}")
        else:
            out.append(str(v))
    return out


#: Standings columns in the terminal: short header, and priority (higher goes first when the
#: terminal is narrow; 0 always stays).
_STANDINGS_COLUMNS = {
    "Rank": ("#", 0), "Player": ("Player", 0), "Games": ("Games", 0), "Total": ("Total", 0),
    "Average": ("Avg", 2), "Avg place": ("Place", 1), "1st": ("1st", 4), "2nd": ("2nd", 4),
    "3rd": ("3rd", 4), "4th": ("4th", 4), "Top rate": ("Top", 3),
    "Last-avoid rate": ("No last", 3), "Best": ("Best", 5), "Worst": ("Worst", 5),
    "Rank pts": ("Rank pts", 0),
}
_SIGNED = {"Total", "Average", "Best", "Worst", "Rank pts"}
#: The same short headers in Japanese (``--lang ja``).
_STANDINGS_JA = {
    "Rank": "順位", "Player": "選手", "Games": "対局数", "Total": "合計", "Average": "平均",
    "Avg place": "平均着順", "1st": "1着", "2nd": "2着", "3rd": "3着", "4th": "4着",
    "Top rate": "トップ率", "Last-avoid rate": "ラス回避率", "Best": "ベスト",
    "Worst": "ワースト", "Rank pts": "段位pt",
}


def _standings_table(rows: Sequence[Any], title: str, wide: bool = False,
                     lang: str = "en") -> Any:
    """The standings for the terminal, fitted to its width (``wide``: every column)."""
    from umaoka.engine import standings_table

    data = standings_table(list(rows))
    header = data[0]
    def head(h: str) -> str:
        if lang == "ja" and h in _STANDINGS_JA:
            return _STANDINGS_JA[h]
        return _STANDINGS_COLUMNS.get(h, (h, 0))[0]

    columns = [Column(head(h),
                      "left" if h == "Player" else "right",
                      _STANDINGS_COLUMNS.get(h, (h, 0))[1], elastic=h == "Player")
               for h in header]
    # one column, one number of decimals: a platform final of -40.0 is read back as -40
    # and stood as "-40" beside "-39.8" (a game typed under the same rules)
    places = {h: max((-int(v.as_tuple().exponent) for v in col  # type: ignore[arg-type]
                      if isinstance(v, Decimal)), default=0)
              for h, col in zip(header, zip(*data[1:])) if h in ("Total", "Best", "Worst")}
    texts = []
    for row in data[1:]:
        cells = []
        for h, v in zip(header, row):
            if h in ("Top rate", "Last-avoid rate"):
                cells.append(f"{v * 100:.1f}%")
            elif h in places and isinstance(v, Decimal) and v:
                cells.append(f"{v:+.{max(places[h], 0)}f}")
            elif h in _SIGNED:
                cells.append(_fmt(v))
            else:
                cells.append(str(v))
        texts.append(cells)

    def colour(i: int, text: str) -> str:
        if header[i] not in _SIGNED or text in ("0", ""):
            return text
        return f"[{'red' if text.startswith('-') else 'green'}]{text}[/]"

    return fit(_console(), title, columns, texts, colour, wide)
