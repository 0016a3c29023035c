"""The exact three-valued core: fact domains, conditions, rule tables, exact verdicts."""
