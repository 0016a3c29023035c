"""The digest a JSON report carries over everything a baseline comparison reads of it.

`licheck --format json` writes `digest: "sha256:HEX"`; `--baseline` recomputes it and refuses a
report whose digest is missing or does not match, so that no finding can be re-graded, moved to
another product or component, added, removed, duplicated or reordered by hand and then accepted
as the baseline's.  The form is canonical (docs/baselines.md says it in full, so that another
tool can check a baseline too):

    HEADER  = [schema_version, tool, tool_version, evidence_policy, as_of, library]
    FINDING = [component, model, license, clause, quote, verdict, waived]
    PRODUCT = SHA-256 hex of the JSON of [product, file, [FINDING, ...]]
    digest  = "sha256:" + SHA-256 hex of  JSON(HEADER) "\\n" (PRODUCT "\\n")*

each JSON written with sorted keys, no spaces and no ASCII escaping, UTF-8.  The digest of each
product is computed where the product is encoded (a worker process of `licheck check`), so a
portfolio's report never needs its findings together.  This module works on the report's JSON
data (plain dicts), the one form the writer's and the reader's sides share.

A digest detects edits, not a forger: anyone can recompute it.  A baseline is reviewed like code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

PREFIX = "sha256:"
HEADER_FIELDS = ("schema_version", "tool", "tool_version", "evidence_policy", "as_of", "library")
FINDING_FIELDS = ("component", "model", "license", "clause", "quote", "verdict", "waived")


def canonical(value: Any) -> bytes:
    """The one JSON text of `value` that the digest is computed over."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def product_digest(product: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of one product's part of the report, as the digest counts it."""
    findings = [[f.get(key) for key in FINDING_FIELDS] for f in product["findings"]]
    return hashlib.sha256(canonical([product["product"], product["file"], findings])).hexdigest()


def report_digest(header: Mapping[str, Any], products: Iterable[str]) -> str:
    """The report's digest from its top-level fields and its products' digests, in order."""
    hasher = hashlib.sha256(canonical([header.get(key) for key in HEADER_FIELDS]) + b"\n")
    for digest in products:
        hasher.update(digest.encode("ascii") + b"\n")
    return PREFIX + hasher.hexdigest()
