"""The library's one cattrs converter, and structuring with short errors that name a path.

Everything the library reads from outside (component data files now, records later) is
structured through ``converter``: explicitly configured, never cattrs' global one. Its hooks
take JSON and TOML values as they are (no ``"3"`` for 3, no ``true`` or ``1.0`` for 1), refuse
keys that the target class does not have, and check the length of a bounded array before
structuring any of its entries, so that a hostile document cannot make the library work
through a million entries. ``structure()`` turns whatever goes wrong into the caller's own
exception: one line per problem, each naming the path, the first ``MAX_PROBLEMS`` of them and
then how many more there are.
"""

from __future__ import annotations

import enum
import json
import math
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol, TypeVar

import attrs
import cattrs
import cattrs.gen
from cattrs.errors import (
    AttributeValidationNote,
    BaseValidationError,
    CattrsError,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)

_T = TypeVar("_T")

MAX_PROBLEMS = 10
"""How many problems an error message lists before it only counts the rest."""

_SHOWN_CHARACTERS = 40
_JSON_NAMES: Mapping[type, str] = {int: "an integer", str: "a string", bool: "true or false"}


@attrs.frozen
class MaxItems:
    """``Annotated[list[X], MaxItems(n)]``: an array of at most ``n`` entries.

    The length is checked before any entry is structured.
    """

    count: int


_FIELD = "_tricky_treats_field"
_PROBLEMS = "_tricky_treats_problems"
_E = TypeVar("_E", bound=BaseException)


def at_field(exc: _E, field: str, problem: str) -> _E:
    """``exc``, marked as ``problem`` with ``field``: ``problems()`` reports it at that path.

    For attrs validators, which cattrs otherwise reports at the path of the whole class; the
    exception keeps its own class and message for whoever else catches it.
    """
    setattr(exc, _FIELD, (field, problem))
    return exc


def with_problems(exc: _E, found: Iterable[tuple[str, str]]) -> _E:
    """``exc``, marked as several ``(path, problem)`` pairs relative to where it is raised."""
    setattr(exc, _PROBLEMS, tuple(found))
    return exc


def marked_problems(exc: BaseException) -> tuple[tuple[str, str], ...] | None:
    """The pairs ``with_problems`` marked ``exc`` with, if any."""
    found: tuple[tuple[str, str], ...] | None = getattr(exc, _PROBLEMS, None)
    return found


def show(value: object, limit: int = _SHOWN_CHARACTERS) -> str:
    """A value as JSON and TOML write it, cut short: error messages stay small.

    Never fails and never takes long: integers too long to print, large arrays and tables and
    values that JSON cannot hold (TOML dates) are described instead.
    """
    if isinstance(value, list):
        if len(value) > 4 or any(isinstance(v, list | dict) for v in value):
            return f"an array of {len(value)} entries"
        text = f"[{', '.join(_scalar(v, limit) for v in value)}]"
    elif isinstance(value, dict):
        return f"a table of {len(value)} keys" if value else "{}"
    else:
        text = _scalar(value, limit)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _scalar(value: object, limit: int) -> str:
    if type(value) is int and value.bit_length() > 100:  # str() of 5000 digits raises
        return f"a number of {math.floor(math.log10(abs(value))) + 1} digits"
    try:
        return json.dumps(value[: limit + 1] if isinstance(value, str) else value)
    except (TypeError, ValueError):
        return repr(value)[:limit]


def _strict(kind: type) -> Callable[[object, type], object]:
    """Values are taken as they are: no "3" for 3, no 1.0 or true for 1."""

    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {_JSON_NAMES[kind]}, got {show(value)}")
        return value

    return structure


def _enum_hook(enum_type: type[enum.Enum]) -> Callable[[object, type], enum.Enum]:
    members = {member.value: member for member in enum_type}
    allowed = ", ".join(str(value) for value in members)
    kind = enum_type.__name__.lower()

    def structure(value: object, _: type) -> enum.Enum:
        hashable = isinstance(value, str | int) and not isinstance(value, bool)
        member = members.get(value) if hashable else None
        if member is None:
            shown = repr(value) if isinstance(value, str | int) else show(value)
            raise ValueError(f"unknown {kind} {shown[:_SHOWN_CHARACTERS]} (one of {allowed})")
        return member

    return structure


def _sequence_hook(kind: Any) -> Callable[[object, type], object]:
    """Arrays (``list[X]``, ``tuple[X, ...]``, optionally bounded by ``MaxItems``)."""
    max_items: int | None = None
    if typing.get_origin(kind) is typing.Annotated:
        kind, *metadata = typing.get_args(kind)
        max_items = next(m.count for m in metadata if isinstance(m, MaxItems))
    origin = typing.get_origin(kind)
    item_type = typing.get_args(kind)[0]
    item_hook = converter.get_structure_hook(item_type)

    def structure(value: object, _: type) -> object:
        if type(value) is not list:
            raise TypeError(f"expected an array, got {show(value)}")
        if max_items is not None and len(value) > max_items:
            raise ValueError(f"at most {max_items} entries allowed, got {len(value)}")
        items: list[object] = []
        errors: list[Exception] = []
        for index, item in enumerate(value):
            try:
                items.append(item_hook(item, item_type))
            except Exception as exc:
                note = IterableValidationNote(f"@ index {index}", index, item_type)
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"while structuring {kind!r}", errors, kind)
        return tuple(items) if origin is tuple else items

    return structure


def _is_sequence(kind: Any) -> bool:
    if typing.get_origin(kind) is typing.Annotated:
        args = typing.get_args(kind)
        if not any(isinstance(m, MaxItems) for m in args[1:]):
            return False
        kind = args[0]
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    return (origin is list and len(args) == 1) or (
        origin is tuple and len(args) == 2 and args[1] is Ellipsis
    )


def _make_converter() -> cattrs.Converter:
    result = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (int, str, bool):
        result.register_structure_hook(kind, _strict(kind))
    result.register_structure_hook_factory(
        lambda t: isinstance(t, type) and issubclass(t, enum.Enum), _enum_hook
    )
    result.register_structure_hook_factory(_is_sequence, _sequence_hook)
    return result


converter = _make_converter()
"""The library's converter. Modules register the hooks of their own classes on it."""


def register_table(cls: type[Any], what: str = "a table") -> None:
    """Structure the attrs class ``cls`` from a table (JSON: an object) of exactly its fields."""
    from_dict = cattrs.gen.make_dict_structure_fn(cls, converter)

    def structure(value: object, kind: type) -> object:
        if not isinstance(value, dict):
            raise TypeError(f"expected {what}, got {show(value)}")
        return from_dict(value, kind)

    converter.register_structure_hook(cls, structure)


class _Failure(Protocol):
    def __call__(self, message: str, /) -> Exception: ...


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _missing(kind: Any) -> str:
    if typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    if attrs.has(kind):
        return "missing table"
    if typing.get_origin(kind) in (list, tuple):
        return "missing array"
    return "missing"


def problems(exc: BaseException, path: str = "") -> Iterator[tuple[str, str]]:
    """Each ``(path, problem)`` in an error raised by ``converter``, lazily and in order."""
    if isinstance(exc, IterableValidationError):
        indexed, others = exc.group_exceptions()
        for sub, index_note in indexed:
            yield from problems(sub, f"{path}[{index_note.index!r}]")
        for sub in others:
            yield from problems(sub, path)
    elif isinstance(exc, ClassValidationError):
        named, others = exc.group_exceptions()
        for sub, name_note in named:
            yield from _field_problems(sub, name_note, path)
        for sub in others:
            yield from problems(sub, path)
    elif isinstance(exc, ForbiddenExtraKeysError):
        allowed = ", ".join(a.name for a in attrs.fields(exc.cl)) if attrs.has(exc.cl) else ""
        for key in sorted(exc.extra_fields, key=str):
            yield path, f"unknown key {show(key)} (the keys are {allowed})"
    elif hasattr(exc, _FIELD):
        field, problem = getattr(exc, _FIELD)
        yield _join(path, field), problem
    elif hasattr(exc, _PROBLEMS):
        for where, problem in getattr(exc, _PROBLEMS):
            yield _join(path, where) if where else path, problem
    elif isinstance(exc, BaseValidationError):
        for sub in exc.exceptions:
            yield from problems(sub, path)
    else:
        yield path, str(exc)


def _field_problems(
    exc: BaseException, note: AttributeValidationNote, path: str
) -> Iterator[tuple[str, str]]:
    where = _join(path, note.name)
    if type(exc) is KeyError:
        yield where, _missing(note.type)
    else:
        yield from problems(exc, where)


def report(found: Iterable[tuple[str, str]], prefix: str = "") -> str:
    """One line per problem, ``prefix`` first on each, at most ``MAX_PROBLEMS`` of them."""
    lines: list[str] = []
    more = 0
    for path, problem in found:
        if len(lines) < MAX_PROBLEMS:
            lines.append(f"{prefix}{path}: {problem}" if path else f"{prefix}{problem}")
        else:
            more += 1
    if more:
        lines.append(f"{prefix}and {more} more problem{'s' if more > 1 else ''}")
    return "\n".join(lines)


def structure(document: object, kind: type[_T], fail: _Failure, prefix: str = "") -> _T:
    """``document`` as a ``kind``, or ``fail(message)`` raised, the message made by ``report``."""
    try:
        result: _T = converter.structure(document, kind)
    except (CattrsError, TypeError, ValueError) as exc:
        raise fail(report(problems(exc), prefix) or f"{prefix}{exc}") from None
    return result
