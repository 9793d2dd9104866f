"""What a league workbook holds, below any one sheet.

``model`` is the workbook as data (tabs, rulesets, stages); ``labels`` and
``season_labels`` the words in English and Japanese; ``layout`` where each block sits;
``runtime`` the formulas for each Excel add-in runtime; ``results`` and ``saved_values``
the formulas of settled columns and the values saved beside them; ``season_book`` reads
a workbook's season back into the engine's terms.
"""
