"""Problems with user input, located at file:line:column.

Bad input is expected: loaders collect `Diagnostic`s (all of them, in all files) and raise one
`InputError` carrying them; the CLI prints them and exits 2.  Exceptions of any other type are bugs.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def path_text(text: str) -> str:
    """A file name as text every output can encode: the bytes of a name that is not UTF-8
    (which Python keeps as lone surrogates, `caf\\udce9.yaml`) shown as `\\xNN` (`caf\\xe9.yaml`).
    Every other name is returned as it is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a surrogate that no undecodable byte stands for
            return text.encode("utf-8", "backslashreplace").decode("utf-8")
        return raw.decode("utf-8", "backslashreplace")
    return text


@dataclass(frozen=True, slots=True)
class Location:
    """Where a finding is: the manifest, and the 1-based line and column of its decisive entry."""

    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One problem in one input file; `line` and `column` are 1-based, 0 when unknown."""

    file: str
    line: int
    column: int
    message: str
    hint: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # a file name that is not UTF-8 would make every report and message unwritable
        object.__setattr__(self, "file", path_text(self.file))
        object.__setattr__(self, "message", path_text(self.message))

    def __str__(self) -> str:
        where = self.file if self.line == 0 else f"{self.file}:{self.line}:{self.column}"
        text = f"{where}: error: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


class LicheckError(Exception):
    """Root of licheck's own errors: each one is the user's to fix, and the CLI exits 2."""


class InputError(LicheckError):
    """One or more located problems in input files."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def fail(file: str, line: int, column: int, message: str, hint: str = "") -> InputError:
    """An `InputError` for a single problem (raise the result)."""
    return InputError([Diagnostic(file, line, column, message, hint)])
