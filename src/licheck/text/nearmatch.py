"""Strings that differ only in case, white space or typography: near-matches.

A license asks for a name ("Kimi K2.5", a "Llama" prefix); a manifest states `KIMI K2.5`, a
non-breaking space, curly quotes or an en-dash.  Whether such a string counts is for a person to
judge, so the engine reads a near-match both ways (as the name, and not): the verdict becomes a
governance risk that names the difference, never silently a violation or satisfied.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

from licheck.text.spacing import fold_space

# Typographic variants and the plain character each stands for.
_TYPOGRAPHY: Final = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
    }
)


def _typography(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY)


# A pure function of its argument, asked of the same few names over and over: a clause's reading
# of a set fact compares every member with every name it tests (on a 279-manifest portfolio,
# 35,000 calls for 35 distinct strings), so the answers are kept, keyed by the string.
@functools.lru_cache(maxsize=4096)
def normal(text: str) -> str:
    """`text` with case, white space and typography set aside."""
    return _typography(fold_space(text)).casefold()


def near(value: str, name: str) -> bool:
    """Whether `value` is `name` up to case, white space or typography, but not exactly."""
    return value != name and normal(value) == normal(name)


def near_prefix(value: str, prefix: str) -> bool:
    """Whether `value` starts with `prefix` up to case, white space or typography only."""
    return not value.startswith(prefix) and normal(value).startswith(normal(prefix))


def difference(value: str, name: str) -> str:
    """How `value` differs from `name` (or from its start, for a prefix), in words:
    "differs only in case: 'KIMI K2.5' vs 'Kimi K2.5'"."""
    kinds = []
    spaced_value, spaced_name = fold_space(value), fold_space(name)
    if spaced_value != value or spaced_name != name:
        kinds.append("white space")
    plain_value, plain_name = _typography(spaced_value), _typography(spaced_name)
    if plain_value != spaced_value or plain_name != spaced_name:
        kinds.append("typography")
    if not plain_value.startswith(plain_name):
        kinds.append("case")
    return f"differs only in {' and '.join(kinds) or 'form'}: {value!r} vs {name!r}"
