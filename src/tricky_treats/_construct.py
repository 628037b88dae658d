"""Building frozen attrs instances fast, for the hot path (``model``, ``rules``, ``scoring``).

Not part of the public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__: list[str] = []

_C = TypeVar("_C")


def _extra_slots(cls: type, fields: Any) -> list[str]:
    """The slots of ``cls``'s base classes that are not attrs fields of it."""
    names = {f.name for f in fields}
    slots: list[str] = []
    for klass in cls.__mro__[1:]:
        for name in getattr(klass, "__slots__", ()):
            if name not in names and not name.startswith("__") and name not in slots:
                slots.append(name)
    return slots


def _fast_constructor(cls: type[_C]) -> Callable[..., _C]:
    """A constructor for the frozen slotted attrs class ``cls`` that skips its frozen guard.

    attrs builds a frozen instance with one ``object.__setattr__`` call per field, which
    dominates the cost of a move. The hot path instead fills an instance of a subclass with
    no slots of its own and the plain ``__setattr__`` (plain attribute stores) and then gives
    the object its real class; CPython allows that ``__class__`` assignment to a base class
    of the same layout (a sibling class would not do for classes with a ``__weakref__``
    slot). The result is an ordinary, equal, frozen instance. Arguments are positional, in
    field order; fields with ``init=False`` get their default, and ``__attrs_post_init__``
    runs last (it sets the others). Where the interpreter refuses the assignment, the attrs
    constructor is returned instead. No validators or converters run: callers pass checked
    values.
    """
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    params = [f.name.lstrip("_") for f in fields if f.init]
    body = [f"    self.{f.name} = {f.name.lstrip('_')}" for f in fields if f.init]
    body += [f"    self.{f.name} = {f.default!r}" for f in fields if _plain_default(f)]
    # Slots of a base class that are no attrs fields (``model._Memo``): set to None, so that
    # reading one finds a value (a missing slot costs an exception on every read).
    body += [f"    self.{name} = None" for name in _extra_slots(cls, fields)]
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    namespace: dict[str, object] = {}
    exec(source, namespace)
    twin = type(
        f"_Mutable{cls.__name__}",
        (cls,),
        {
            "__slots__": (),
            "__init__": namespace["__init__"],
            # Both, as they share one type slot: with either left frozen, stores are slow.
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
        },
    )

    post_init = getattr(cls, "__attrs_post_init__", None)

    def build(*args: object) -> _C:
        instance = twin(*args)
        instance.__class__ = cls
        result: _C = instance
        return result

    def build_then_post_init(*args: object) -> _C:
        instance = twin(*args)
        instance.__class__ = cls
        instance.__attrs_post_init__()
        result: _C = instance
        return result

    if post_init is not None:
        build = build_then_post_init

    try:
        twin(*(None for _ in params)).__class__ = cls
    except TypeError:  # pragma: no cover - an interpreter without __class__ assignment
        return cls
    return build


def _plain_default(field: attrs.Attribute[Any]) -> bool:
    """Whether ``field`` is set from a plain default rather than by ``__attrs_post_init__``."""
    return not field.init and field.default is not attrs.NOTHING
