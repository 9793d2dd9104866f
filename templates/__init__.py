"""Workbook generation with openpyxl: the league template, batch generation, settling."""
