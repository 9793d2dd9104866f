"""One module per kind of sheet in the league workbook.

``base`` is what every sheet shares; ``league_tab`` a league's games; ``standings``,
``season``, ``season_standings``, ``season_live`` and ``season_totals`` the standings;
``players``, ``rules``, ``presets``, ``seating``, ``stats``, ``rating`` and ``start`` the
sheets of those names.
"""
