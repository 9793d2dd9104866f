"""umaoka's engine: riichi mahjong settlement with oka and uma, exact, with no Excel in sight.

>>> from umaoka.engine import settle
>>> settle([35700, 32400, 22200, 9700], "standard").final
(Decimal('46'), Decimal('12'), Decimal('-18'), Decimal('-40'))
"""

from umaoka.engine import moved
from umaoka.engine.batch import Settled, settle_many
from umaoka.engine.errors import UmaokaError
from umaoka.engine.presets import PRESETS, Preset
from umaoka.engine.resolve import preset, ruleset
from umaoka.engine.rules import CHOICES, FIELD_HELP, FIELDS, Ruleset, parse_uma
from umaoka.engine.settle import Settlement, rank, seat_names, settle, tenths_to_decimal
from umaoka.engine.shortcut import Shortcut, offsets, shortcut
from umaoka.engine.standings import STANDINGS_HEADER, PlayerStanding, standings, standings_table

__all__ = [
    "CHOICES",
    "FIELDS",
    "FIELD_HELP",
    "PRESETS",
    "STANDINGS_HEADER",
    "PlayerStanding",
    "Preset",
    "Ruleset",
    "Settled",
    "Settlement",
    "Shortcut",
    "UmaokaError",
    "offsets",
    "parse_uma",
    "preset",
    "rank",
    "ruleset",
    "seat_names",
    "settle",
    "settle_many",
    "shortcut",
    "standings",
    "standings_table",
    "tenths_to_decimal",
]

moved.install()  # scripts written for 0.2 import modules that have since moved

try:  # the distribution's version, for `umaoka --version` and bug reports
    from importlib.metadata import version as _version

    __version__ = _version("umaoka")
except Exception:  # pragma: no cover - running from a source tree that is not installed
    __version__ = "0.0.0"
