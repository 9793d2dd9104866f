"""umaoka's Excel functions, by area; :mod:`umaoka.addin.udfs` lists them for xlwings.

``cells`` reads cells as each Excel client sends them (one place for blanks, errors and
dates); ``settle``, ``standings``, ``hands``, ``online`` and ``season`` hold the
functions of those areas, each a few lines around a call into the engine; ``recalc`` and
``season_cache`` keep what a recalculation can reuse.
"""
