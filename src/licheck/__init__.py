"""licheck: license-compliance checks for AI products built on open-weight models.

The Python API (`licheck.api`, docs/api.md) is re-exported here: `from licheck import evaluate`.
It is imported on first use, so that `import licheck` and `licheck --version` stay fast.
"""

from licheck._version import __version__

# licheck.api.__all__, spelt out so that this module imports nothing (tests/test_api.py checks)
_API = (
    "Diagnostic",
    "FindingOut",
    "InputError",
    "Library",
    "LicheckError",
    "ProductOut",
    "Report",
    "Verdict",
    "WhatIfReport",
    "check",
    "evaluate",
    "load_library",
    "what_if",
)
__all__ = ["__version__", *_API]

TYPE_CHECKING = False  # as typing's, without importing typing (not loaded by `import licheck`)

if TYPE_CHECKING:
    from licheck.api import (
        Diagnostic as Diagnostic,
    )
    from licheck.api import (
        FindingOut as FindingOut,
    )
    from licheck.api import (
        InputError as InputError,
    )
    from licheck.api import (
        Library as Library,
    )
    from licheck.api import (
        LicheckError as LicheckError,
    )
    from licheck.api import (
        ProductOut as ProductOut,
    )
    from licheck.api import (
        Report as Report,
    )
    from licheck.api import (
        Verdict as Verdict,
    )
    from licheck.api import (
        WhatIfReport as WhatIfReport,
    )
    from licheck.api import (
        check as check,
    )
    from licheck.api import (
        evaluate as evaluate,
    )
    from licheck.api import (
        load_library as load_library,
    )
    from licheck.api import (
        what_if as what_if,
    )


def __getattr__(name: str) -> object:
    """The API's names, imported on first use (PEP 562): the one lazy import of this module."""
    if name in _API:
        from licheck import api

        return getattr(api, name)
    raise AttributeError(f"module 'licheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
