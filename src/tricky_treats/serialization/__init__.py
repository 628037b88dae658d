"""Game records: versioned JSON that saves a game at any point and loads it back identically.

A **game record** (``tt.dumps(game)``) holds the configuration and variants with their
versions, the seed, the rules in force, the setup it deals (so readers in other languages need
not re-implement the shuffle), the action log, a snapshot of the current state, and a SHA-256
digest of all of it, written as canonical JSON (keys sorted, no spaces): but for the digest,
the text is what the digest is taken over. ``tt.loads(text)`` checks the digest, deals the
game again from the seed and the installed variants, checks the deal, the rules and the
component data against the record, replays the log and compares the result with the
snapshot: a record whose parts disagree is refused, naming the part. (A record exactly as
``dumps`` writes it is checked by writing the replayed game's record again and comparing the
texts, which proves all of that at once.) ``tt.loads(text, verify=False)`` builds the state from
the snapshot without replaying, and still refuses a snapshot that breaks an invariant of the
game (cards not conserved, two cards of one type on a kid, more visits than footprints, ...).

The checks detect accidents and careless edits. They are no signature: anyone can recompute
the digest. A server that must trust records it gets back from clients signs them (see
``docs/records.md``).

A **player record** (``tt.dumps(game, player=i)``) holds only what player ``i`` may see
(R16): no seed, no deck order, no other player's secret tile. ``tt.loads_view(text)`` reads it
back as a ``PlayerView`` and refuses one the engine could not have produced.

Both formats are versioned independently of the package (``format_version``). A newer version
is refused; older versions are migrated step by step (see ``_MIGRATIONS``). JSON Schemas for
both ship in the package: ``record_schema()`` and ``view_schema()``. Records are strict JSON
(no NaN, no duplicate keys) of at most ``MAX_RECORD_BYTES``, nested at most 32 levels, with at
most ``MAX_ACTIONS`` actions.

The package, one concern a module, each importing only those above it:

- ``shapes``: formats, limits, ``RecordError``, the records' attrs classes and the converter;
- ``checks``: the game's invariants, the installed variants a record names, a view's checks;
- ``texts``: JSON texts kept by the identity of immutable objects, for both writers;
- ``player_records``: the player record's fast writer (``dumps(game, player=p)`` and
  ``dumps_view``), which keeps each field's text per game, tested against the converter;
- ``writing``: ``dumps``, a fast writer beside the reference writer it is tested against;
- ``migration``: parsing a record's JSON and migrating older versions;
- ``reading``: ``loads`` and ``loads_view``, an exact-text path beside the general one;
- ``schemas``: ``record_schema`` and ``view_schema``.
"""

from tricky_treats.serialization.migration import _CURRENT as _CURRENT
from tricky_treats.serialization.migration import _MIGRATIONS as _MIGRATIONS
from tricky_treats.serialization.migration import _parse as _parse
from tricky_treats.serialization.player_records import _view_record as _view_record
from tricky_treats.serialization.player_records import dumps_view
from tricky_treats.serialization.reading import _load_checked as _load_checked
from tricky_treats.serialization.reading import _load_exact as _load_exact
from tricky_treats.serialization.reading import loads, loads_view
from tricky_treats.serialization.schemas import record_schema, view_schema
from tricky_treats.serialization.shapes import (
    MAX_ACTIONS,
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    VIEW_FORMAT,
    VIEW_FORMAT_VERSION,
    RecordError,
)
from tricky_treats.serialization.shapes import _converter as _converter
from tricky_treats.serialization.writing import _canonical as _canonical
from tricky_treats.serialization.writing import _canonical_record as _canonical_record
from tricky_treats.serialization.writing import _digest as _digest
from tricky_treats.serialization.writing import _record_document as _record_document
from tricky_treats.serialization.writing import dumps

# The private names above are reached through this path by the tests and benchmarks.

__all__ = [
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "VIEW_FORMAT",
    "VIEW_FORMAT_VERSION",
    "RecordError",
    "dumps",
    "dumps_view",
    "loads",
    "loads_view",
    "record_schema",
    "view_schema",
]
