"""licheck: license-compliance checks for AI products built on open-weight models."""

__version__ = "0.2.0"
__all__ = ["__version__"]
