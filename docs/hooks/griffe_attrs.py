"""A griffe extension for the API reference: attrs fields show their default, not ``field()``.

A field written ``colour: Colour = attrs.field(validator=_member(Colour))`` would render with
the whole call, private validator included. This extension keeps what a caller needs: the
default (``= 2``, ``= list()`` for a factory) or nothing for a required field. The source is
not changed.
"""

from __future__ import annotations

from typing import Any

import griffe

FIELD_FUNCTIONS = {"attrs.field", "attr.ib", "attr.attrib", "field"}


def field_default(value: str | griffe.Expr | None) -> str | griffe.Expr | None:
    """What a field's signature shows for ``value``: its default if it is an attrs field."""
    if not isinstance(value, griffe.ExprCall) or str(value.function) not in FIELD_FUNCTIONS:
        return value
    for argument in value.arguments:
        if isinstance(argument, griffe.ExprKeyword) and argument.name == "default":
            return argument.value
        if isinstance(argument, griffe.ExprKeyword) and argument.name == "factory":
            return f"{argument.value}()"
    return None


class AttrsDefaults(griffe.Extension):
    """Show each attrs field's default in place of its ``attrs.field(...)`` call."""

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        """Rewrite ``attr``'s value."""
        attr.value = field_default(attr.value)
