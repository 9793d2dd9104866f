"""The spreadsheet substrate: writing and reading .xlsx files fast and safely.

``cells`` and ``writer`` stream rows into a workbook; ``reader`` reads tabs back with
defusedxml's expat; ``styles``, ``formats`` and ``charts`` are the looks; ``io`` writes
every file atomically and reads every input text one way. Nothing here knows a league.
"""
