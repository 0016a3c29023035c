"""`python -m licheck.schemas`: regenerate the shipped JSON Schemas from the models."""

from licheck.schemas import write_all

write_all()
