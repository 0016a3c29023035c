"""`python -m licheck.library`: regenerate the shipped library (`library.json`) from `licenses/`."""

from licheck.files.safeio import default_directory
from licheck.library.compiled import SHIPPED, shipped_data

SHIPPED.write_text(shipped_data(default_directory()), encoding="utf-8")
