"""A post as one PNG for a phone: 1080 pixels wide, as tall as the league needs.

matplotlib draws it (its table for the standings, its line plot for the chart): a
well-kept library that renders the same on every platform, with no browser or office
program, and whose fonts we can name (a Japanese font for Japanese names). Blocks are laid
out top to bottom in pixels, then placed in one figure.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from umaoka.templates.book.labels import label
from umaoka.templates.post.content import Chart, Post, Table

#: The picture's width in pixels (a phone screen's), its resolution, and its margin.
WIDTH = 1080
DPI = 200
MARGIN = 36
ROW = 46  # a table row, in pixels
FONT = 8.5  # table text, in points (about 24 pixels at DPI)
GREEN, RED = "#006100", "#9C0006"  # the workbook's colours for totals above and below zero
HEADER_FILL, STRIPE_FILL, LINE = "#DDEBF7", "#F5F8FC", "#BFBFBF"

#: Fonts with Japanese glyphs, best first: Noto (Debian/Ubuntu: fonts-noto-cjk), IPA
#: (fonts-ipaexfont), and the ones Windows and macOS ship.
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic",
             "Source Han Sans JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic",
             "Meiryo", "MS Gothic")


def needs_cjk(post: Post) -> bool:
    """Whether any text of the post is beyond Latin (Japanese labels or names)."""
    texts = [post.name]
    for s in post.sections:
        texts.append(s.title)
        for t in s.tables:
            texts += [t.title, *t.header, *(c.text for r in t.rows for c in r)]
        if s.chart:
            texts += [n for n, _ in s.chart.series]
    return any(ord(ch) > 0x2FFF for text in texts for ch in text)


def cjk_font() -> str | None:
    """The first installed font of :data:`CJK_FONTS`, or None."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return next((f for f in CJK_FONTS if f in have), None)


def font_family(post: Post) -> tuple[list[str], str | None]:
    """The font family for the post, and a warning when Japanese text has no font."""
    if not needs_cjk(post):
        return ["DejaVu Sans"], None
    font = cjk_font()
    if font is None:
        return ["DejaVu Sans"], (
            "no Japanese font is installed, so Japanese text in the picture shows as "
            "boxes; install one (Debian/Ubuntu: `apt install fonts-noto-cjk`) and post "
            "again (Windows and macOS have one).")
    return [font, "DejaVu Sans"], None


@dataclass
class _Block:
    height: int  # pixels
    draw: Callable[[Any, Any], None]  # (figure, axes) -> None


def _text_block(text: str, size: float, weight: str = "normal", color: str = "black",
                height: int = 56) -> _Block:
    def draw(fig: Any, ax: Any) -> None:
        ax.axis("off")
        ax.text(0, 0.5, text, fontsize=size, fontweight=weight, color=color, va="center",
                ha="left", transform=ax.transAxes, wrap=True)
    return _Block(height, draw)


def _widths(table: Table) -> list[float]:
    """Column widths in proportion to their longest text (a bold header or total counts
    a little wider)."""
    def size(text: str) -> float:
        return sum(2 if ord(ch) > 0x2FFF else 1 for ch in text) + 2
    raw = [max([size(h) * 1.1] + [size(r[i].text) * (1.1 if r[i].sign else 1)
                                    for r in table.rows])
           for i, h in enumerate(table.header)]
    total = sum(raw)
    return [w / total for w in raw]


def _table_block(table: Table) -> _Block:
    def draw(fig: Any, ax: Any) -> None:
        ax.axis("off")
        text = [[c.text for c in r] for r in table.rows]
        t = ax.table(cellText=text or None, colLabels=list(table.header),
                     colWidths=_widths(table), bbox=[0, 0, 1, 1], cellLoc="left")
        t.auto_set_font_size(False)
        t.set_fontsize(FONT)
        for (r, c), cell in t.get_celld().items():
            cell.set_edgecolor(LINE)
            cell.set_linewidth(0.5)
            right = table.numeric[c]
            cell.get_text().set_ha("right" if right else "left")
            cell.PAD = 0.04
            if r == 0:
                cell.set_facecolor(HEADER_FILL)
                cell.get_text().set_fontweight("bold")
                continue
            cell.set_facecolor(STRIPE_FILL if r % 2 == 0 else "white")
            shown = table.rows[r - 1][c]
            if shown.sign:
                cell.get_text().set_color(GREEN if shown.sign > 0 else RED)
                cell.get_text().set_fontweight("bold")
    return _Block(ROW * (len(table.rows) + 1), draw)


def _chart_block(chart: Chart, font: float = FONT) -> _Block:
    def draw(fig: Any, ax: Any) -> None:
        x = list(range(1, len(chart.sessions) + 1))
        for name, values in chart.series:
            ax.plot(x, [float(v) for v in values], marker="o", markersize=2.5,
                    linewidth=1.4, label=name)
        ax.axhline(0, color="#808080", linewidth=0.6)
        ax.set_title(chart.title, fontsize=font + 1.5, loc="left")
        ax.set_xlabel(chart.x_label, fontsize=font)
        ax.set_ylabel(chart.y_label, fontsize=font)
        step = max(1, len(x) // 12)
        ax.set_xticks(x[::step], chart.sessions[::step])
        ax.tick_params(labelsize=font - 1)
        ax.grid(True, color="#E0E0E0", linewidth=0.5)
        ax.legend(fontsize=font - 1, ncol=4, loc="upper center", frameon=False,
                  bbox_to_anchor=(0.5, -0.22))
    return _Block(760, draw)


def _blocks(post: Post) -> list[_Block]:
    lang = post.lang
    blocks = [_text_block(post.name, 15, "bold", height=80)]
    if post.last_game:
        blocks.append(_text_block(label("post_last_game", lang, date=post.last_game), 9,
                                  color="#404040", height=50))
    for section in post.sections:
        blocks.append(_text_block(section.title, 11, "bold", height=84))
        for table in section.tables:
            blocks.append(_text_block(table.title, FONT + 0.5, "bold", "#404040", height=52))
            blocks.append(_table_block(table))
        if section.chart is not None:
            blocks.append(_Block(24, lambda fig, ax: ax.axis("off")))
            blocks.append(_chart_block(section.chart))
    return blocks


def _settings(family: list[str], salt: str = "") -> dict[str, Any]:
    """matplotlib's settings for a post: our fonts; a name's ``$`` is text, never math;
    an SVG's text stays text, its ids kept apart by ``salt``."""
    return {"font.family": family, "axes.unicode_minus": False, "text.parse_math": False,
            "svg.fonttype": "none", "svg.hashsalt": f"umaoka{salt}"}


#: Where a chart's axes sit inside its block (room for tick labels, the title and legend).
_CHART_INSET = (0.11, 0.30, 0.86, 0.62)


def picture(post: Post) -> tuple[bytes, str | None]:
    """The post as PNG bytes (1080 pixels wide), and a warning when a font is missing."""
    import matplotlib

    matplotlib.use("Agg")  # no screen: draw to memory
    from matplotlib.figure import Figure

    family, warning = font_family(post)
    blocks = _blocks(post)
    height = sum(b.height for b in blocks) + 2 * MARGIN
    with matplotlib.rc_context(_settings(family)):
        fig = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI)
        fig.patch.set_facecolor("white")
        top = height - MARGIN
        inner = (WIDTH - 2 * MARGIN) / WIDTH
        for b in blocks:
            top -= b.height
            rect = [MARGIN / WIDTH, top / height, inner, b.height / height]
            if b.draw.__qualname__.startswith("_chart_block"):
                left, bottom, w, h = _CHART_INSET
                rect = [rect[0] + left * rect[2], rect[1] + bottom * rect[3], w * rect[2],
                        h * rect[3]]
            b.draw(fig, fig.add_axes(rect))
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue(), warning


def chart_svg(chart: Chart, family: list[str], salt: str = "") -> str:
    """One chart as inline SVG for the page (its text left as text, drawn by the reader's
    fonts); ``salt`` keeps the ids of several charts in one page apart."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_settings(family, salt)):
        # a page shows the chart about as wide as a phone's screen in CSS pixels (about 390,
        # where the picture has 1080): its text is drawn larger to read as well
        fig = Figure(figsize=(WIDTH / DPI, 860 / DPI), dpi=DPI)
        left, bottom, w, h = _CHART_INSET
        _chart_block(chart, font=FONT * 1.35).draw(
            fig, fig.add_axes([left + 0.03, bottom + 0.02, w - 0.03, h - 0.04]))
        out = io.StringIO()
        fig.savefig(out, format="svg")
    svg = out.getvalue()
    svg = svg[svg.index("<svg"):]  # the document's prolog has no place inside a page
    # nor its metadata (a creation time that would make every page differ)
    start, end = svg.find("<metadata>"), svg.find("</metadata>")
    return svg[:start] + svg[end + len("</metadata>"):] if 0 <= start < end else svg
