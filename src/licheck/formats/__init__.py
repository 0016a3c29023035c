"""Output formats: each renders a `report.Report` to a string; none recomputes a verdict."""
