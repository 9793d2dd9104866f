"""Excel-facing layer: xlwings UDFs and the umaoka command line."""
