"""`python -m licheck`."""

from licheck.cli import main

main()
