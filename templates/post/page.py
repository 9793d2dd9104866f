"""A post as one self-contained web page: inline CSS, each chart as inline SVG, no script
and nothing fetched, so it opens offline, reads on a phone and prints cleanly.

Jinja2 writes it: a template engine that escapes every value it puts into the page
(autoescape), so a player's name can never act as markup or script there.
"""

from __future__ import annotations

from importlib.resources import files

from jinja2 import Environment
from markupsafe import Markup

from umaoka.templates.book.labels import label
from umaoka.templates.post.content import Post
from umaoka.templates.post.picture import chart_svg, font_family

#: Fonts for the page: the reader's own sans-serif, with Japanese fonts named first for
#: readers whose default has no Japanese glyphs.
_FONTS = ('"Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic", Meiryo, '
          "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif")


def page(post: Post, source: str, version: str) -> str:
    """The post as one HTML page (text), self-contained."""
    env = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    family, _ = font_family(post)
    # the SVG is matplotlib's own output for our chart (names in it escaped by matplotlib)
    charts = [Markup(chart_svg(s.chart, family, str(i))) if s.chart else ""
              for i, s in enumerate(post.sections)]
    template = files("umaoka.templates.post").joinpath("page.html").read_text(encoding="utf-8")
    return env.from_string(template).render(
        post=post, lang=post.lang, version=version, fonts=Markup(_FONTS), charts=charts,
        when=label("post_last_game", post.lang, date=post.last_game),
        made=label("post_made", post.lang, version=version, source=source))
