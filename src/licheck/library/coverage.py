"""Coverage: which sentences of a license text impose something, and which of them a rule file
accounts for.

Pure functions over a license (`model.License`) and its canonical text; no I/O.

- **Sentences.**  The text is cut into blocks at blank lines and at list items (a line starting
  with `*`, `-`, `•`, `1.`, `1.2`, `(a)`, `a.`, `(iv)`, `iv.`), then each block into sentences
  after `.`, `!` or `?` (and any closing quote or bracket) followed by white space and a capital,
  a digit, a quote, a bracket or `*` -- except after a common abbreviation (`e.g.`, `Inc.`, ...),
  a single letter, or a block's leading number (`4.`, `2.2.`).  Positions are in the text with
  its white space folded (`spacing.fold_space`), where quotes are matched.
- **Duty sentences.**  A sentence with a duty word or phrase of `DUTY_WORDS` (shall, must, may
  not, will not, you will, cannot, do not, prohibited, not allowed, no rights, may only, only
  for, responsible for, nothing in this, ...; whole words, any case).
- **Counted sentences.**  The duty sentences, plus every sentence that an entry (a clause or a
  `not_encoded` entry) quotes: the author says it imposes a duty, a condition, a prohibition or
  an exception even without a duty word ("If ... you are not authorized ...").
- **Quoted (the overlap rule).**  An occurrence of a quote in the text quotes a sentence when it
  overlaps the sentence by at least half the sentence's characters, or by at least
  `MIN_OVERLAP` (60) characters that include one of the sentence's duty words (the operative part
  of a long sentence); for a sentence without duty words, 60 characters suffice.
- **Encoded**: quoted by a clause.  **Accounted**: encoded, or quoted by a `not_encoded` entry.
  An accounted sentence that is not encoded is "to encode" when some entry quoting it has a
  reason starting with "to encode:", and otherwise "nothing to encode".
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from licheck.inputs.rules import License
from licheck.text.spacing import fold_space

# Phrases that mark a duty, a prohibition, a condition or a withheld right, chosen by reading
# what each matches in the reference texts ("You will comply with Meta's brand guidelines",
# "you are not allowed to use any Logo", "Nothing in this License permits You to make use of
# DeepSeek' trademarks", "You may only access ... for Non-Commercial Purposes").  Left out, as
# they mostly match sentences that impose nothing: "subject to" (the preambles of grants, "you
# are the owner ... subject to Meta's ownership", "materials subject to ITAR" inside an item
# already listed), "does not" (the UN sales convention "does not apply", disclaimers) and
# "obligated" (only "We/You are not obligated to ...", the absence of a duty).
DUTY_WORDS = (
    "shall",
    "must",
    "may not",
    "will not",
    "agree to",
    "agrees to",
    "required",
    "will comply",
    "you will",
    "cannot",
    "can not",
    "not permitted",
    "not allowed",
    "prohibited",
    "do not",
    "not authorized",
    "no rights",
    "does not grant",
    "not granted",
    "grants you no",
    "grants you any rights",
    "is not licensed",
    "nothing in this",
    "may only",
    "only for",
    "responsible for",
    "is conditioned",
    "need to",
    "have to",
    # audit s3-B M-4: glm-4's duties are all phrased with "should", DeepSeek's and OpenRAIL's
    # Attachment A lead in with "agree not to", DeepSeek §9 with "commit to"
    "should",
    "agree not to",
    "agrees not to",
    "commit to",
    "commits to",
    "undertake",
    "undertakes",
    "is not allowed",
    "provided that",
)
# White space folded to single spaces: quotes are matched as `licheck licenses verify` does.
fold = fold_space

DUTY_RE = re.compile(
    r"\b(?:" + "|".join(w.replace(" ", r"\s+") for w in DUTY_WORDS) + r")\b", re.IGNORECASE
)
MIN_OVERLAP = 60
TO_ENCODE = "to encode:"

# A line that starts a list item: a bullet, a number (1. 1.2 2.2.3), (a) a. (iv) iv. 1)
_ITEM = re.compile(
    r"^\s*(?:[*\-•·]\s|\d+(?:\.\d+)*[.)]?\s|\(?[a-zA-Z]\)\s|[a-z]\.\s|\(?[ivxIVX]{1,5}[.)]\s"
    r"|\(\d{1,3}\)\s)"
)
# The end of a sentence: . ! ? and any closing quotes or brackets, then white space, then the
# start of the next (a capital, a digit, an opening quote or bracket, markdown emphasis).
_END = re.compile(r"[.!?][\"'”’)\]*]*\s+(?=[\"“‘'(\[*A-Z0-9])")
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "inc",
        "ltd",
        "co",
        "corp",
        "no",
        "nos",
        "u.s",
        "u.s.a",
        "mr",
        "ms",
        "dr",
        "st",
        "vs",
        "v",
        "jr",
        "cf",
        "approx",
        "incl",
        "sec",
        "art",
        "para",
        "pp",
        "p",
        "fig",
        "al",
    ]
)


@dataclass(frozen=True, slots=True)
class Sentence:
    start: int  # in the folded text
    end: int
    text: str
    duties: tuple[tuple[int, int], ...]  # spans of duty words, in the folded text

    @property
    def is_duty(self) -> bool:
        return bool(self.duties)


def _blocks(text: str) -> list[str]:
    """The text cut at blank lines and at the lines that start list items."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        if not line.strip() or _ITEM.match(line):
            if current:
                blocks.append(current)
            current = [line] if line.strip() else []
        else:
            current.append(line)
    if current:
        blocks.append(current)
    return [folded for block in blocks if (folded := fold(" ".join(block)))]


def _splits_here(block: str, end: re.Match[str]) -> bool:
    """Whether the mark at `end` ends a sentence (not an abbreviation or an enumerator)."""
    before = block[: end.start()]
    last = re.search(r"\S+$", before)
    if last is None:
        return False
    word = last.group(0).lower().lstrip("(\"'“‘*")
    if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
        return False
    # a block's leading enumerator: "4. Redistribution", "2.2. Use", "iv. Use"
    leading = last.start() == 0
    return not (leading and re.fullmatch(r"[\d.]+|\(?[a-z]{1,4}\)?", word) is not None)


def sentences(text: str) -> list[Sentence]:
    """The sentences of a text, with their positions in the folded text (`fold(text)`)."""
    folded = fold(text)
    found: list[Sentence] = []
    position = 0
    for block in _blocks(text):
        start = folded.index(block, position)
        position = start + len(block)
        cut = 0
        for end in _END.finditer(block):
            if _splits_here(block, end):
                found.append(
                    _sentence(folded, start + cut, start + end.start() + 1 + _closing(end))
                )
                cut = end.end()
        found.append(_sentence(folded, start + cut, start + len(block)))
    return [s for s in found if s.text]


def _closing(end: re.Match[str]) -> int:
    """How many closing quotes or brackets follow the sentence's final mark."""
    return len(end.group(0).rstrip()) - 1


def _sentence(folded: str, start: int, end: int) -> Sentence:
    text = folded[start:end]
    stripped = text.strip()
    start += len(text) - len(text.lstrip())
    end = start + len(stripped)
    duties = tuple((start + m.start(), start + m.end()) for m in DUTY_RE.finditer(stripped))
    return Sentence(start, end, stripped, duties)


def occurrences(quote: str, folded: str) -> list[tuple[int, int]]:
    """Every span where `quote` (white space folded) occurs in the folded text."""
    needle = fold(quote)
    spans: list[tuple[int, int]] = []
    if not needle:
        return spans
    at = folded.find(needle)
    while at != -1:
        spans.append((at, at + len(needle)))
        at = folded.find(needle, at + 1)
    return spans


def quotes(sentence: Sentence, span: tuple[int, int]) -> bool:
    """The overlap rule: does a quote occurring at `span` quote `sentence`?"""
    low, high = max(sentence.start, span[0]), min(sentence.end, span[1])
    overlap = high - low
    if overlap <= 0:
        return False
    if 2 * overlap >= sentence.end - sentence.start:
        return True
    if overlap < MIN_OVERLAP:
        return False
    if not sentence.duties:
        return True
    return any(low <= a and b <= high for a, b in sentence.duties)


@dataclass(frozen=True, slots=True)
class Counted:
    """One counted sentence and who accounts for it."""

    sentence: Sentence
    clauses: tuple[str, ...]  # ids of the clauses quoting it
    not_encoded: tuple[int, ...]  # indexes of the not_encoded entries quoting it
    to_encode: bool  # quoted by a not_encoded entry whose reason starts "to encode:"

    @property
    def encoded(self) -> bool:
        return bool(self.clauses)

    @property
    def accounted(self) -> bool:
        return self.encoded or bool(self.not_encoded)


@dataclass(frozen=True, slots=True)
class Coverage:
    license: str
    text: str  # the text's file name
    counted: tuple[Counted, ...]
    missing_quotes: tuple[int, ...]  # not_encoded entries whose quote is not in the text

    @property
    def total(self) -> int:
        return len(self.counted)

    @property
    def encoded(self) -> int:
        return sum(c.encoded for c in self.counted)

    @property
    def accounted(self) -> int:
        return sum(c.accounted for c in self.counted)

    @property
    def to_encode(self) -> int:
        return sum(c.accounted and not c.encoded and c.to_encode for c in self.counted)

    @property
    def nothing_to_encode(self) -> int:
        return sum(c.accounted and not c.encoded and not c.to_encode for c in self.counted)

    @property
    def unaccounted(self) -> tuple[Sentence, ...]:
        return tuple(c.sentence for c in self.counted if not c.accounted)


def coverage(license_: License, text: str) -> Coverage:
    """How much of `text` (the license's canonical text) the rule file accounts for."""
    folded = fold(text)
    found = sentences(text)
    clause_spans = [(c.id, occurrences(c.quote, folded)) for c in license_.clauses]
    entry_spans = [occurrences(e.quote, folded) for e in license_.not_encoded]
    counted: list[Counted] = []
    for sentence in found:
        clauses = tuple(i for i, spans in clause_spans if _any(sentence, spans))
        entries = tuple(n for n, spans in enumerate(entry_spans) if _any(sentence, spans))
        if not (sentence.is_duty or clauses or entries):
            continue
        to_encode = any(
            license_.not_encoded[n].reason.strip().lower().startswith(TO_ENCODE) for n in entries
        )
        counted.append(Counted(sentence, clauses, entries, to_encode))
    missing = tuple(n for n, spans in enumerate(entry_spans) if not spans)
    return Coverage(license_.id, license_.text.file, tuple(counted), missing)


def _any(sentence: Sentence, spans: Iterable[tuple[int, int]]) -> bool:
    return any(quotes(sentence, span) for span in spans)


@dataclass(frozen=True, slots=True)
class Totals:
    total: int
    encoded: int
    accounted: int
    to_encode: int
    nothing_to_encode: int

    @property
    def encoded_fraction(self) -> float:
        """Of the counted sentences less those with nothing to encode (a disclaimer, a
        definition, governing law), the share a clause encodes; unaccounted sentences count
        against it (nobody has said they need nothing)."""
        owed = self.total - self.nothing_to_encode
        return self.encoded / owed if owed else 0.0

    @property
    def accounted_fraction(self) -> float:
        return self.accounted / self.total if self.total else 0.0

    @property
    def unaccounted(self) -> int:
        return self.total - self.accounted


def totals(results: Sequence[Coverage]) -> Totals:
    return Totals(
        sum(r.total for r in results),
        sum(r.encoded for r in results),
        sum(r.accounted for r in results),
        sum(r.to_encode for r in results),
        sum(r.nothing_to_encode for r in results),
    )


@dataclass(frozen=True, slots=True)
class UnaccountedText:
    """A text of the folder that no rule file encodes and no set-aside entry names."""

    text: str  # its name inside the texts folder
    counted: int  # its duty sentences, at least 1: the text itself is unaccounted for

    @staticmethod
    def of(name: str, text: str) -> UnaccountedText:
        return UnaccountedText(name, max(1, sum(s.is_duty for s in sentences(text))))


@dataclass(frozen=True, slots=True)
class LibraryCoverage:
    """The coverage of each license of a library whose text was read (in id order), the
    licenses whose text was absent (not measured: the figures are partial), the texts of the
    folder no rule file encodes nor sets aside (`unaccounted_texts`: their duty sentences count
    against the overall figure, so it is 100% only when every text is accounted for), and the
    texts set aside (name, reason)."""

    results: tuple[Coverage, ...]
    missing: tuple[tuple[str, str], ...]  # (license id, text file) of each absent text
    unaccounted_texts: tuple[UnaccountedText, ...] = ()
    set_aside: tuple[tuple[str, str], ...] = ()  # (text file, reason) of each text set aside

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def overall(self) -> Totals:
        encoded = totals(self.results)
        extra = sum(t.counted for t in self.unaccounted_texts)
        return dataclasses.replace(encoded, total=encoded.total + extra)

    def each(self) -> list[tuple[Coverage, Totals]]:
        """Each license's coverage with its own figures."""
        return [(r, totals([r])) for r in self.results]
