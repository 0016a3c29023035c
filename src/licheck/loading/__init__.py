"""A document to a model: YAML read safely, checked by its pydantic model, problems located."""
