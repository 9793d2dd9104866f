"""xlwings' Office.js path (xlwings Server and Lite) is chosen when xlwings is first imported."""

import os

os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
