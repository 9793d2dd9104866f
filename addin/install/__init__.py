"""Getting the functions into Excel, and updating a manager's workbook in place.

``lite`` builds xlwings Lite's main.py from the source; ``embed`` and ``parts`` put it
into a workbook's package; ``setup`` prints how to set up classic xlwings and
xlwings-server; ``save`` writes a workbook with its code; ``update`` rewrites a league
workbook in place and keeps what the manager made.
"""
