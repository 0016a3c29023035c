"""`record`: a frozen, slotted dataclass that costs less to create at import.

On Python 3.11 `dataclass` compiles every generated method from source with `exec`, and licheck
defines dozens of dataclasses on its start path.  `record` lets `dataclass` generate `__init__`
(it needs the class's own signature) and builds the rest from closures instead: no compiling, the
behaviour of `@dataclass(frozen=True, slots=True)`
-- equality of same-class instances field by field (as tuples, so `x is y` still counts), the
hash of the field tuple, the `Name(field=value, ...)` repr, and with `order=True` the four
comparisons.  Fields marked `compare=False`, `hash=...` or `repr=False` are honoured, and a method
written in the class body is kept, as `dataclass` keeps it.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
import sys
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

# 3.11's dataclasses compiles the frozen __setattr__/__delattr__ in `_frozen_get_del_attr`; on
# that version only, `_record` lends it `_frozen_methods` for the duration of its own call.
_LEND_FROZEN = sys.version_info[:2] == (3, 11) and hasattr(dataclasses, "_frozen_get_del_attr")


def _frozen_methods(
    owner: type[Any], fields: list[dataclasses.Field[Any]], globals: dict[str, Any]
) -> tuple[Callable[..., None], Callable[..., None]]:
    """`dataclasses._frozen_get_del_attr` of Python 3.11, as closures: the same tests, errors
    and messages."""
    names = tuple(f.name for f in fields)
    error = dataclasses.FrozenInstanceError

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is owner or name in names:
            raise error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The named fields as a tuple, always (attrgetter returns a bare value for one name)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return operator.attrgetter(*names)


def _comparison(
    compare: Callable[[Any, Any], bool], fields: Callable[[Any], tuple[Any, ...]]
) -> Callable[[Any, object], Any]:
    def method(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compare(fields(self), fields(other))
        return NotImplemented

    return method


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, order: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[T] | None = None, /, *, order: bool = False) -> Any:
    """`@dataclass(frozen=True, slots=True[, order=True])`, its methods but `__init__` and the
    frozen `__setattr__`/`__delattr__` not compiled."""
    if cls is None:
        return lambda cls: _record(cls, order)
    return _record(cls, order)


def _record(cls: type[T], order: bool) -> type[T]:
    own = dict(cls.__dict__)
    make = dataclasses.dataclass(frozen=True, slots=True, eq=False, repr=False)
    if _LEND_FROZEN:
        compiled = dataclasses._frozen_get_del_attr  # type: ignore[attr-defined]
        dataclasses._frozen_get_del_attr = _frozen_methods  # type: ignore[attr-defined]
        try:
            made = make(cls)
        finally:
            dataclasses._frozen_get_del_attr = compiled  # type: ignore[attr-defined]
    else:
        made = make(cls)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    compared = _getter([f.name for f in fields if f.compare])
    hashed = _getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
    shown = [f.name for f in fields if f.repr]

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({body})"

    if "__eq__" not in own:
        made.__eq__ = __eq__  # type: ignore[method-assign]
    for name, compare in (
        ("__lt__", operator.lt),
        ("__le__", operator.le),
        ("__gt__", operator.gt),
        ("__ge__", operator.ge),
    ):
        if order:
            if name in own:  # as `dataclass` refuses it
                raise TypeError(
                    f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                    "Consider using functools.total_ordering"
                )
            setattr(made, name, _comparison(compare, compared))
    # as `dataclass` decides: a body's __eq__ alone leaves __hash__ None there, still generated
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        made.__hash__ = __hash__  # type: ignore[method-assign]
    if "__repr__" not in own:
        made.__repr__ = __repr__  # type: ignore[method-assign]
    return made
