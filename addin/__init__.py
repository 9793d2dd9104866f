"""umaoka in Excel and on the command line.

``udfs`` lists the Excel functions for xlwings (they live in ``functions``); ``install``
gets them into a workbook and each runtime; ``cli`` is the ``umaoka`` command.
"""

from umaoka.engine import moved

moved.install()  # scripts written for 0.2 import modules that have since moved
