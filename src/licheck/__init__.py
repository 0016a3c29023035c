"""licheck: license-compliance checks for AI products built on open-weight models."""

__version__ = "0.1.0"
__all__ = ["__version__"]
