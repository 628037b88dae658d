"""Variants registered for one test alone, as an installed distribution would register them.

``loads_view`` refuses a record whose variants are not installed, so a test that writes and
reads back a player record of an ad-hoc variant registers it first.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import pytest

import tricky_treats as tt
from tricky_treats import plugins
from tricky_treats.variants import BUILTIN_VARIANTS


@contextlib.contextmanager
def registered_variants(*variants: tt.Variant) -> Iterator[list[tt.Variant]]:
    """Install ``variants`` (and those appended to the list it gives) until the block ends."""
    extra = list(variants)

    def registry() -> plugins.VariantRegistry:
        return plugins.VariantRegistry((*BUILTIN_VARIANTS, *extra), entry_points=[])

    original = plugins.variant_registry
    with pytest.MonkeyPatch.context() as monkeypatch:
        for module in list(sys.modules.values()):  # every module that imported the function
            if (
                module.__name__.startswith("tricky_treats")
                and getattr(module, "variant_registry", None) is original
            ):
                monkeypatch.setattr(module, "variant_registry", registry)
        yield extra
