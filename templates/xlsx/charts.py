"""The line charts of the workbook (cumulative points, R ratings): one look for all.

Each plots a table written on its own sheet: a header row with the series' names at
``header`` (columns 2 to ``1 + series``) and ``count`` rows below it, the categories
(sessions, games) in column 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from openpyxl.chart import LineChart, Reference
from openpyxl.chart.data_source import NumFmt

#: Above this many points a series is drawn without markers (they would pile up).
MARKERS_UP_TO = 40


def line_chart(ws: Any, anchor: str, header: int, series: int, count: int, *, title: str,
               x_title: str, y_title: str, width: float, height: float,
               y_range: tuple[int, int] | None = None) -> LineChart:
    """A line chart of the table at ``header``, placed at ``anchor`` (e.g. ``"A30"``);
    ``y_range``: the value axis's bounds (else the application's, which start at 0)."""
    chart = LineChart()
    chart.title = title
    chart.y_axis.title = y_title
    chart.x_axis.title = x_title
    chart.x_axis.delete = False
    chart.x_axis.tickLblPos = "low"  # category labels below the plot, not on the zero line
    chart.y_axis.delete = False
    # plain numbers on the axis: the points format's sign and rounding made an empty
    # chart's axis read "+1, +1, 0"
    chart.y_axis.numFmt = NumFmt(formatCode="General", sourceLinked=False)
    if y_range is not None:
        chart.y_axis.scaling.min, chart.y_axis.scaling.max = y_range
    chart.height = height
    chart.width = width
    chart.legend.position = "r"
    if series:
        chart.add_data(Reference(ws, min_col=2, max_col=1 + series, min_row=header,
                                 max_row=header + count), titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=1, min_row=header + 1,
                                       max_row=header + count))
    for s in chart.series:
        s.smooth = False
        s.marker.symbol = "none" if count > MARKERS_UP_TO else "circle"
    ws.add_chart(chart, anchor)
    return chart


def axis_range(values: Iterable[Any], step: int = 50) -> tuple[int, int] | None:
    """Bounds for a value axis close around ``values``, on multiples of ``step`` with at
    least half a step of room: R near 1500 plotted from 0 was a set of flat lines."""
    numbers = [Decimal(str(v)) for v in values
               if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)]
    if not numbers:
        return None
    low, high = min(numbers) - Decimal(step) / 2, max(numbers) + Decimal(step) / 2
    return math.floor(low / step) * step, math.ceil(high / step) * step
