"""JSON read strictly: an object that names a key twice is refused, never read as its last value
(JSON readers disagree on which of the two counts: `"purl"` twice would name two models, a
baseline's `"verdict"` twice two verdicts)."""

from __future__ import annotations

from typing import Any


class DuplicateKey(ValueError):
    """The key an object names twice (`args[0]`)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`'s `object_pairs_hook`: the object, or `DuplicateKey`."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(key)
        data[key] = value
    return data
