"""umaoka's workbooks: the league workbook, the settled copy, batch and import books.

``xlsx`` is the spreadsheet substrate, ``book`` what a league workbook holds, ``sheets``
one module per sheet; the modules here are the flows that build and read whole workbooks
(``build``, ``settle_book``, ``import_book``, ``batch``, ``demo``, ``bundle``).
"""

from umaoka.engine import moved

moved.install()  # scripts written for 0.2 import modules that have since moved
