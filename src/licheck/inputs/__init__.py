"""The pydantic models of every input format: the one validator (schemas are made from them)."""
