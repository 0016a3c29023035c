"""licheck's version, in one place: `pyproject.toml` reads it, `licheck.__version__` is it, and
every report that names the tool imports it from here (never from the package root, which
re-exports the API: a module below would otherwise import the top)."""

__version__ = "0.2.0"
