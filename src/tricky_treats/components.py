"""The game's components as immutable values, and the loader for component data files.

The rules code holds no card data: the base game's cards, houses, tokens and tiles live in
``data/base.toml`` (package data, each entry marked ``confirmed`` or ``assumed`` as in
``RULINGS.md``) and are loaded once by ``base_components()``. A file in the same format,
read by ``load_components()``, can replace them, for example with the exact cards of a
printed copy of the game.
"""

from __future__ import annotations

import enum
import functools
import importlib.resources
import itertools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from tricky_treats.errors import ComponentDataError

__all__ = [
    "COMPONENTS_FORMAT",
    "COMPONENTS_FORMAT_VERSION",
    "FEATURES",
    "Colour",
    "ComponentData",
    "CostumeCard",
    "CostumeType",
    "Feature",
    "MeanNeighbour",
    "NiceNeighbour",
    "Provenance",
    "RulesData",
    "StreetBonusToken",
    "Theme",
    "Tier",
    "Treat",
    "TrickIcon",
    "TrickTile",
    "base_components",
    "components_document",
    "feature_text",
    "load_components",
    "parse_components",
    "parse_feature",
]

COMPONENTS_FORMAT = "tricky-treats-components"
COMPONENTS_FORMAT_VERSION = 1


class Colour(enum.Enum):
    """The colour of a costume card."""

    PURPLE = "purple"
    RED = "red"
    GREEN = "green"


class Theme(enum.Enum):
    """The theme of a costume card."""

    ANIMAL = "animal"
    HORROR = "horror"
    FABLE = "fable"
    SPACE = "space"


class CostumeType(enum.Enum):
    """Where a costume card is worn; a kid wears at most one of each (R2)."""

    HEAD = "head"
    BODY = "body"
    LEGS = "legs"


class TrickIcon(enum.Enum):
    """The trick icon printed on every costume card and on each mean house."""

    SPIDERWEB = "spiderweb"
    TOILET_PAPER = "toilet-paper"
    EGG = "egg"


class Treat(enum.Enum):
    """A type of treat; each player has one track per type."""

    CANDY = "candy"
    LOLLIPOP = "lollipop"
    GUMMY = "gummy"


class Provenance(enum.Enum):
    """Where a fact about a component comes from (``RULINGS.md``, "Component data")."""

    CONFIRMED = "confirmed"
    ASSUMED = "assumed"


Feature = Colour | Theme | CostumeType
"""What a nice neighbour wants to see: a colour, a theme or a type of costume."""

FEATURES: tuple[Feature, ...] = (*Colour, *Theme, *CostumeType)
"""Every feature in a fixed order: the 3 colours, the 4 themes, then the 3 types."""

_PROVENANCE = attrs.field(default=Provenance.CONFIRMED, eq=False, repr=False, kw_only=True)


@attrs.frozen
class CostumeCard:
    """A transparent costume card: one colour, theme and type, and a trick icon."""

    id: int
    colour: Colour
    theme: Theme
    type: CostumeType
    icon: TrickIcon
    provenance: Provenance = _PROVENANCE

    def __str__(self) -> str:
        return f"{self.colour.value} {self.theme.value} {self.type.value} ({self.icon.value})"

    def has(self, feature: Feature) -> bool:
        """Whether this card counts for a nice neighbour who wants ``feature`` (R1)."""
        return feature in (self.colour, self.theme, self.type)


@attrs.frozen
class Tier:
    """A nice neighbour's tier: with at least ``cards`` matching cards, get ``treats``."""

    cards: int
    treats: int


@attrs.frozen
class NiceNeighbour:
    """A nice neighbour's house card: the feature it wants and its tiers, lowest first."""

    id: str
    wants: Feature
    tiers: tuple[Tier, ...]
    provenance: Provenance = _PROVENANCE

    @property
    def minimum(self) -> int:
        """The fewest matching cards that allow a visit (R5)."""
        return self.tiers[0].cards

    def treats_for(self, matching_cards: int) -> int:
        """Treats given to a visitor with ``matching_cards`` cards of the wanted feature.

        The highest tier reached counts (R5); below the lowest tier the result is 0 and the
        house may not be visited.
        """
        treats = 0
        for tier in self.tiers:
            if matching_cards >= tier.cards:
                treats = tier.treats
        return treats

    def __str__(self) -> str:
        tiers = ", ".join(f"{t.cards}->{t.treats}" for t in self.tiers)
        return f"likes {self.wants.value} ({tiers})"


@attrs.frozen
class MeanNeighbour:
    """A mean neighbour's house card, showing one trick icon (R4)."""

    icon: TrickIcon
    provenance: Provenance = _PROVENANCE


@attrs.frozen
class TrickTile:
    """A trick tile: ``points`` for every complete set of ``treats`` a player holds (R14)."""

    id: str
    treats: tuple[Treat, ...]
    points: int
    provenance: Provenance = _PROVENANCE

    def sets(self, treats: Mapping[Treat, int]) -> int:
        """How many complete sets the treat tracks ``treats`` can form; none are spent."""
        needed = {t: self.treats.count(t) for t in self.treats}
        return min(treats.get(t, 0) // n for t, n in needed.items())

    def score(self, treats: Mapping[Treat, int]) -> int:
        """The points this tile gives for ``treats`` (R14)."""
        return self.points * self.sets(treats)

    def __str__(self) -> str:
        return f"{' + '.join(t.value for t in self.treats)} = {self.points}"


@attrs.frozen
class StreetBonusToken:
    """A street bonus token: ``front`` treats to the first to finish a street, then ``back``."""

    treat: Treat
    front: int = 2
    back: int = 1
    provenance: Provenance = _PROVENANCE


@attrs.frozen
class RulesData:
    """The numbers that size a game, and the rule options that variants switch on.

    ``any_mean_house`` is the R4 option, ``refresh_ends_turn`` the R8 option.
    """

    min_players: int = 2
    max_players: int = 4
    kids_per_player: int = 5
    footprints_per_player: int = 8
    market_size: int = 5
    pumpkin_points: int = 2
    any_mean_house: bool = False
    refresh_ends_turn: bool = False


@attrs.frozen
class ComponentData:
    """Everything in the box: the data a game is dealt from."""

    name: str
    rules: RulesData
    cards: tuple[CostumeCard, ...]
    nice_neighbours: tuple[NiceNeighbour, ...]
    mean_neighbours: tuple[MeanNeighbour, ...]
    house_treat_tokens: tuple[Treat, ...]
    street_bonus_tokens: tuple[StreetBonusToken, ...]
    trick_tiles: tuple[TrickTile, ...]
    _derived: Any = attrs.field(init=False, default=None, eq=False, repr=False)
    """Index tables the engine derives from these components, built on first use."""

    GRID_HOUSES = 9
    STREETS = 6

    def __attrs_post_init__(self) -> None:
        _check_counts(self)


def _check_counts(data: ComponentData) -> None:
    """Check that the components can deal a game; raise ComponentDataError if not."""
    rules = data.rules
    problems = [
        f"rules.{name} must be at least 1"
        for name in ("kids_per_player", "footprints_per_player", "market_size")
        if getattr(rules, name) < 1
    ]
    if not 2 <= rules.min_players <= rules.max_players:
        problems.append("rules: need 2 <= min_players <= max_players")
    if rules.pumpkin_points < 0:
        problems.append("rules.pumpkin_points must not be negative")
    for i, card in enumerate(data.cards):
        if card.id != i:
            problems.append(f"costume_cards.cards[{i}]: id is {card.id}, expected {i}")
    if len(data.cards) < rules.market_size:
        problems.append(
            f"costume_cards: {len(data.cards)} cards cannot fill a market of {rules.market_size}"
        )
    if len(data.nice_neighbours) < data.GRID_HOUSES:
        problems.append(
            f"nice_neighbours: {len(data.nice_neighbours)} houses cannot fill the 3x3 grid"
        )
    if len(data.house_treat_tokens) != data.GRID_HOUSES:
        problems.append(
            f"house_treat_tokens: expected {data.GRID_HOUSES}, got {len(data.house_treat_tokens)}"
        )
    if len(data.street_bonus_tokens) != data.STREETS:
        problems.append(
            f"street_bonus_tokens: expected {data.STREETS}, got {len(data.street_bonus_tokens)}"
        )
    icons = [m.icon for m in data.mean_neighbours]
    if sorted(i.value for i in icons) != sorted(i.value for i in TrickIcon):
        problems.append("mean_neighbours: expected one house for each trick icon (R4)")
    needed_tiles = len(data.mean_neighbours) + rules.max_players
    if len(data.trick_tiles) < needed_tiles:
        problems.append(
            f"trick_tiles: {len(data.trick_tiles)} tiles, but {len(data.mean_neighbours)} mean "
            f"houses and {rules.max_players} players need {needed_tiles}"
        )
    if problems:
        raise ComponentDataError(f"{data.name}: " + "; ".join(problems))


_E = TypeVar("_E", bound=enum.Enum)
_T = TypeVar("_T")


class _Reader:
    """Reads one parsed TOML document, naming the entry at fault in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> ComponentDataError:
        return ComponentDataError(f"{self.source}: {where}: {problem}")

    def table(self, doc: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
        value = doc.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"{where}{key}", "missing table" if value is None else "not a table")
        return value

    def array(self, doc: Mapping[str, Any], key: str, where: str) -> list[Any]:
        value = doc.get(key)
        if not isinstance(value, list):
            raise self.fail(f"{where}.{key}", "missing array" if value is None else "not an array")
        return value

    def integer(self, doc: Mapping[str, Any], key: str, where: str, default: int | None) -> int:
        value = doc.get(key, default)
        if value is None:
            raise self.fail(f"{where}.{key}", "missing")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"{where}.{key}", f"expected an integer, got {value!r}")
        if value < 0:
            raise self.fail(f"{where}.{key}", f"must not be negative, got {value}")
        return value

    def boolean(self, doc: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
        value = doc.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key}", f"expected true or false, got {value!r}")
        return value

    def text(self, doc: Mapping[str, Any], key: str, where: str) -> str:
        value = doc.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}", f"expected a non-empty string, got {value!r}")
        return value

    def member(self, enum_type: type[_E], value: object, where: str) -> _E:
        for member in enum_type:
            if member.value == value:
                return member
        allowed = ", ".join(str(m.value) for m in enum_type)
        raise self.fail(where, f"unknown {enum_type.__name__.lower()} {value!r} (one of {allowed})")

    def provenance(self, doc: Mapping[str, Any], where: str) -> Provenance:
        return self.member(Provenance, doc.get("status", "confirmed"), f"{where}.status")

    def entries(
        self, doc: Mapping[str, Any], section: str, key: str, read: Callable[[Any, str], _T]
    ) -> tuple[_T, ...]:
        where = f"{section}.{key}"
        items = self.array(self.table(doc, section, ""), key, section)
        return tuple(read(item, f"{where}[{i}]") for i, item in enumerate(items))

    def entry(self, item: object, where: str) -> Mapping[str, Any]:
        if not isinstance(item, dict):
            raise self.fail(where, f"expected a table, got {item!r}")
        return item


_FEATURE_KINDS: Mapping[str, type[Colour] | type[Theme] | type[CostumeType]] = {
    "colour": Colour,
    "theme": Theme,
    "type": CostumeType,
}


def feature_text(feature: Feature) -> str:
    """A feature as data files and records write it: ``colour:green``, ``type:head``."""
    kind = next(k for k, enum_type in _FEATURE_KINDS.items() if isinstance(feature, enum_type))
    return f"{kind}:{feature.value}"


def parse_feature(text: object) -> Feature:
    """Read ``colour:NAME``, ``theme:NAME`` or ``type:NAME``; raise ValueError if it is not."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise ValueError(f"expected 'colour:NAME', 'theme:NAME' or 'type:NAME', got {text!r}")
    kind, name = text.split(":")
    enum_type = _FEATURE_KINDS.get(kind)
    if enum_type is None:
        raise ValueError(f"unknown feature kind {kind!r} (one of colour, theme, type)")
    for member in enum_type:
        if member.value == name:
            return member
    allowed = ", ".join(m.value for m in enum_type)
    raise ValueError(f"unknown {kind} {name!r} (one of {allowed})")


def _feature(reader: _Reader, value: object, where: str) -> Feature:
    try:
        return parse_feature(value)
    except ValueError as exc:
        raise reader.fail(where, str(exc)) from None


def parse_components(document: Mapping[str, Any], source: str = "<components>") -> ComponentData:
    """Build ``ComponentData`` from a parsed component data document.

    ``source`` names the document in error messages, which also name the entry at fault.
    Raises ``ComponentDataError`` for anything malformed.
    """
    r = _Reader(source)
    if document.get("format") != COMPONENTS_FORMAT:
        raise r.fail("format", f"expected {COMPONENTS_FORMAT!r}, got {document.get('format')!r}")
    version = document.get("format_version")
    if version != COMPONENTS_FORMAT_VERSION:
        raise r.fail(
            "format_version",
            f"this version of tricky-treats reads version {COMPONENTS_FORMAT_VERSION}, "
            f"got {version!r}",
        )
    rules_doc = r.table(document, "rules", "")
    defaults = RulesData()
    values: dict[str, int | bool] = {}
    for field in attrs.fields(RulesData):
        default = getattr(defaults, field.name)
        if isinstance(default, bool):
            values[field.name] = r.boolean(rules_doc, field.name, "rules", default)
        else:
            values[field.name] = r.integer(rules_doc, field.name, "rules", default)
    rules = RulesData(**values)  # type: ignore[arg-type]

    def card(item: object, where: str) -> CostumeCard:
        e = r.entry(item, where)
        return CostumeCard(
            id=r.integer(e, "id", where, None),
            colour=r.member(Colour, e.get("colour"), f"{where}.colour"),
            theme=r.member(Theme, e.get("theme"), f"{where}.theme"),
            type=r.member(CostumeType, e.get("type"), f"{where}.type"),
            icon=r.member(TrickIcon, e.get("icon"), f"{where}.icon"),
            provenance=r.provenance(e, where),
        )

    def tier(item: object, where: str) -> Tier:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in item)
        ):
            raise r.fail(where, f"expected [cards, treats], two positive integers, got {item!r}")
        return Tier(cards=item[0], treats=item[1])

    def nice(item: object, where: str) -> NiceNeighbour:
        e = r.entry(item, where)
        tiers = tuple(
            tier(t, f"{where}.tiers[{i}]") for i, t in enumerate(r.array(e, "tiers", where))
        )
        if not tiers:
            raise r.fail(f"{where}.tiers", "needs at least one tier")
        if any(a.cards >= b.cards or a.treats > b.treats for a, b in itertools.pairwise(tiers)):
            raise r.fail(f"{where}.tiers", "tiers must need more cards and give no fewer treats")
        return NiceNeighbour(
            id=r.text(e, "id", where),
            wants=_feature(r, e.get("wants"), f"{where}.wants"),
            tiers=tiers,
            provenance=r.provenance(e, where),
        )

    def mean(item: object, where: str) -> MeanNeighbour:
        e = r.entry(item, where)
        return MeanNeighbour(
            icon=r.member(TrickIcon, e.get("icon"), f"{where}.icon"),
            provenance=r.provenance(e, where),
        )

    def treat(item: object, where: str) -> Treat:
        return r.member(Treat, item, where)

    def street(item: object, where: str) -> StreetBonusToken:
        e = r.entry(item, where)
        return StreetBonusToken(
            treat=r.member(Treat, e.get("treat"), f"{where}.treat"),
            front=r.integer(e, "front", where, 2),
            back=r.integer(e, "back", where, 1),
            provenance=r.provenance(e, where),
        )

    def tile(item: object, where: str) -> TrickTile:
        e = r.entry(item, where)
        treats = tuple(
            treat(t, f"{where}.treats[{i}]") for i, t in enumerate(r.array(e, "treats", where))
        )
        if not treats:
            raise r.fail(f"{where}.treats", "needs at least one treat")
        return TrickTile(
            id=r.text(e, "id", where),
            treats=treats,
            points=r.integer(e, "points", where, None),
            provenance=r.provenance(e, where),
        )

    tokens = r.array(r.table(document, "house_treat_tokens", ""), "tokens", "house_treat_tokens")
    name = r.text(document, "name", "document")
    try:
        data = ComponentData(
            name=name,
            rules=rules,
            cards=r.entries(document, "costume_cards", "cards", card),
            nice_neighbours=r.entries(document, "nice_neighbours", "houses", nice),
            mean_neighbours=r.entries(document, "mean_neighbours", "houses", mean),
            house_treat_tokens=tuple(
                treat(t, f"house_treat_tokens.tokens[{i}]") for i, t in enumerate(tokens)
            ),
            street_bonus_tokens=r.entries(document, "street_bonus_tokens", "tokens", street),
            trick_tiles=r.entries(document, "trick_tiles", "tiles", tile),
        )
    except ComponentDataError as exc:
        # The counts are checked by ComponentData itself, which knows only its name.
        message = str(exc)
        if message.startswith(f"{name}: "):
            message = message[len(name) + 2 :]
            raise ComponentDataError(f"{source}: {message}") from None
        raise
    _check_unique(r, "nice_neighbours.houses", [h.id for h in data.nice_neighbours])
    _check_unique(r, "trick_tiles.tiles", [t.id for t in data.trick_tiles])
    return data


def _check_unique(reader: _Reader, where: str, ids: Sequence[str]) -> None:
    seen: set[str] = set()
    for i, key in enumerate(ids):
        if key in seen:
            raise reader.fail(f"{where}[{i}].id", f"duplicate id {key!r}")
        seen.add(key)


def components_document(data: ComponentData) -> dict[str, Any]:
    """``data`` as a document in the component data format, as ``parse_components()`` reads.

    Saved games embed it when they were played with other than the base game's data.
    """

    def status(
        item: CostumeCard | NiceNeighbour | MeanNeighbour | TrickTile | StreetBonusToken,
    ) -> str:
        return item.provenance.value

    return {
        "format": COMPONENTS_FORMAT,
        "format_version": COMPONENTS_FORMAT_VERSION,
        "name": data.name,
        "rules": attrs.asdict(data.rules),
        "costume_cards": {
            "cards": [
                {
                    "id": c.id,
                    "colour": c.colour.value,
                    "theme": c.theme.value,
                    "type": c.type.value,
                    "icon": c.icon.value,
                    "status": status(c),
                }
                for c in data.cards
            ]
        },
        "nice_neighbours": {
            "houses": [
                {
                    "id": n.id,
                    "wants": feature_text(n.wants),
                    "tiers": [[t.cards, t.treats] for t in n.tiers],
                    "status": status(n),
                }
                for n in data.nice_neighbours
            ]
        },
        "mean_neighbours": {
            "houses": [{"icon": m.icon.value, "status": status(m)} for m in data.mean_neighbours]
        },
        "house_treat_tokens": {"tokens": [t.value for t in data.house_treat_tokens]},
        "street_bonus_tokens": {
            "tokens": [
                {"treat": t.treat.value, "front": t.front, "back": t.back, "status": status(t)}
                for t in data.street_bonus_tokens
            ]
        },
        "trick_tiles": {
            "tiles": [
                {
                    "id": t.id,
                    "treats": [treat.value for treat in t.treats],
                    "points": t.points,
                    "status": status(t),
                }
                for t in data.trick_tiles
            ]
        },
    }


def load_components(path: str | Path) -> ComponentData:
    """Read a component data file (TOML, the format of the package's ``data/base.toml``).

    Raises ``ComponentDataError`` naming the file, the entry and the
    problem when the file is missing, is not TOML or does not describe a playable box.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ComponentDataError(f"{path}: cannot read component data: {exc}") from exc
    return _parse_text(text, str(path))


def _parse_text(text: str, source: str) -> ComponentData:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentDataError(f"{source}: not valid TOML: {exc}") from exc
    try:
        return parse_components(document, source)
    except ComponentDataError:
        raise
    except (TypeError, ValueError) as exc:  # pragma: no cover - a gap in the checks above
        raise ComponentDataError(f"{source}: {exc}") from exc


@functools.cache
def base_components() -> ComponentData:
    """The base game's components, read once from the package's ``data/base.toml``."""
    resource = importlib.resources.files("tricky_treats").joinpath("data/base.toml")
    return _parse_text(resource.read_text(encoding="utf-8"), "tricky_treats/data/base.toml")
