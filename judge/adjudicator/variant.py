"""A variant: the map and the rules a game is played with, as one immutable value.

A ``Variant`` holds the board, the powers with their home centres and starting units, the first
phase, the number of centres that wins, which powers are neutral (seed 001's games for six and
five players take Italy, then Germany, out) and which player holds which powers (its *seats*:
seed 001's four, three and two player games give one person several powers). Every part of the
judge that needs the map or the power list gets it from the game's variant, passed explicitly;
``catalog.py`` reads variants from their folders in ``judge/variants/``.

The facts about each power (its names and adjectives per language, colour and tint on the map,
the home territory coloured as its land) are ``PowerInfo`` values read from the map folder's
``map.json`` (``"powers"``): no other module writes a power's name or colour.

Rule differences are named policies here rather than code in each variant folder, the way
TedDriggs's ``rulebook.rs`` names them: ``neutral`` (those powers' units only hold, are
disbanded when dislodged and make no adjustments), ``closed`` (provinces nobody may enter while
their owner is neutral) and ``lot`` (the two-player game's coin: from a given phase on, the
neutral power joins the seat that won the draw, and its territory opens).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from judge.adjudicator.adjustments import BuildRule
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Unit, parse_unit, unit_value
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position


class VariantError(ValueError):
    """A variant asked for something its rules do not define (e.g. the lot not yet drawn)."""


@dataclass(frozen=True, slots=True)
class Lot:
    """Seed 001's two-player coin: ``power`` joins the winning seat from phase ``drawn_before``."""

    power: str
    drawn_before: Phase  # the lot is drawn before this phase is adjudicated (W1914A)

    def __reduce__(self) -> tuple[type[Lot], tuple[str, Phase]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (Lot, (self.power, self.drawn_before))


# Colours for a power whose map gives none (deterministic: by the power's place in the map's list)
FALLBACK_COLOURS = (
    ("#b03a2e", "#e6b8b3"), ("#1f618d", "#b4cde0"), ("#1e8449", "#b3dcc2"),
    ("#7d3c98", "#d7c2e0"), ("#b9770e", "#ecd3a8"), ("#566573", "#c8ced4"),
    ("#a04000", "#e3c0a6"), ("#117a65", "#aedbd1"), ("#c0392b", "#efb9b3"),
    ("#2e4053", "#bcc3cb"), ("#d4ac0d", "#f2e3a6"), ("#6c3483", "#d2bde0"),
)


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """What a map says about one of its powers (``map.json``'s ``"powers"``)."""

    code: str
    names: Mapping[str, str]  # language -> name ("en" always)
    adjectives: Mapping[str, str]  # language -> adjective
    colour: str  # units and owned centres
    tint: str  # land whose supply centre the power owns
    territory: frozenset[str]  # the provinces coloured as its home land
    other_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # more spellings
    abbreviations: tuple[str, ...] = ()  # what commands accept besides the names (AUS, A)

    def __reduce__(self) -> tuple[type[PowerInfo], tuple[object, ...]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (
            PowerInfo,
            (
                self.code, self.names, self.adjectives, self.colour, self.tint, self.territory,
                self.other_names, self.abbreviations,
            ),
        )

    def name(self, lang: str) -> str:
        """The power's name in ``lang``, else in English (every map has that)."""
        return self.names.get(lang) or self.names.get("en") or self.code.title()

    def adjective(self, lang: str) -> str:
        return self.adjectives.get(lang) or self.adjectives.get("en") or self.name(lang)

    def words(self, lang: str) -> tuple[str, ...]:
        """What a writer of ``lang`` calls the power: name, adjective, other spellings."""
        own = (self.names.get(lang), self.adjectives.get(lang))
        return tuple(w for w in own if w) + tuple(self.other_names.get(lang, ()))


def power_info_from_json(
    raw: Mapping[str, Mapping[str, object]],
    powers: tuple[str, ...],
    homes: Mapping[str, tuple[str, ...]],
) -> dict[str, PowerInfo]:
    """``map.json``'s ``"powers"`` object; a power it leaves out gets its code as its name, a
    palette colour and its home centres as territory."""
    out: dict[str, PowerInfo] = {}
    for i, code in enumerate(powers):
        entry = raw.get(code, {})
        colour, tint = FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)]
        names = _strings(entry.get("names")) or {"en": code.title()}
        other = entry.get("other_names")
        out[code] = PowerInfo(
            code=code,
            names=names,
            adjectives=_strings(entry.get("adjectives")),
            colour=str(entry.get("colour") or colour),
            tint=str(entry.get("tint") or entry.get("colour") or tint),
            territory=frozenset(_list(entry.get("territory")) or homes.get(code, ())),
            other_names={
                str(lang): tuple(_list(words))
                for lang, words in (other.items() if isinstance(other, Mapping) else ())
            },
            abbreviations=tuple(_list(entry.get("abbreviations"))),
        )
    return out


def _strings(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {}


def _list(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


@dataclass(frozen=True, slots=True)
class PhaseRules:
    """What the variant's policies mean in one phase: the board and the neutral powers."""

    board: Board
    neutral: frozenset[str]

    def __reduce__(self) -> tuple[type[PhaseRules], tuple[Board, frozenset[str]]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (PhaseRules, (self.board, self.neutral))


@dataclass(frozen=True, eq=False)
class Variant:
    name: str
    titles: Mapping[str, str]  # language -> the variant's name in bulletins
    board: Board
    powers: tuple[str, ...]
    first_phase: Phase
    victory: int  # centres held by one player (all his powers together) that win the game
    seats: tuple[tuple[str, ...], ...]  # per player, the powers he plays (neutral ones excluded)
    neutral: frozenset[str] = frozenset()
    closed_board: Board | None = None  # the board while the neutral powers' territory is closed
    lot: Lot | None = None
    builds: BuildRule = BuildRule.HOME  # where powers build (``adjustments.BuildRule``)
    # DPjudge's RULE switches the variant names (``variant.json`` "rules"), as written
    switches: tuple[str, ...] = ()
    # the centres each power owns at the start when not its home centres (DPjudge's OWNS:
    # the ``shift*`` maps start every power on another's homes); None: the home centres
    first_centers: Mapping[str, tuple[str, ...]] | None = None
    power_info: Mapping[str, PowerInfo] = field(default_factory=dict)  # the map's, per power
    languages: tuple[str, ...] = ("en",)  # the languages the map's province names exist in
    _plain: PhaseRules = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_plain", PhaseRules(self.board, self.neutral))

    def __repr__(self) -> str:
        return f"Variant({self.name!r})"

    def __reduce__(self) -> tuple[type[Variant], tuple[object, ...]]:
        # its class and fields (see orders.py: the compiled build refuses the default)
        return (
            Variant,
            (
                self.name,
                self.titles,
                self.board,
                self.powers,
                self.first_phase,
                self.victory,
                self.seats,
                self.neutral,
                self.closed_board,
                self.lot,
                self.builds,
                self.switches,
                self.first_centers,
                self.power_info,
                self.languages,
            ),
        )

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def homes(self) -> dict[str, tuple[str, ...]]:
        """The home centres of the variant's powers (a cut-down's other centres are neutral)."""
        homes = self.board.all_home_centers
        if len(homes) != len(self.powers):
            homes = {p: homes[p] for p in self.powers}
        return homes

    @property
    def starting_units(self) -> dict[str, tuple[str, ...]]:
        return {p: u for p, u in self.board.starting_units.items() if p in self.powers}

    @property
    def supply_centers(self) -> frozenset[str]:
        return self.board.supply_centers

    def power(self, code: str) -> PowerInfo:
        """The facts about power ``code`` (a code the map does not know: its own name)."""
        info = self.power_info.get(code)
        if info is None:
            colour, tint = FALLBACK_COLOURS[0]
            return PowerInfo(code, {"en": code.title()}, {}, colour, tint, frozenset())
        return info

    def power_name(self, code: str, lang: str) -> str:
        return self.power(code).name(lang)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def initial_position(self) -> Position:
        units: dict[str, Unit] = {}
        for power, texts in self.starting_units.items():
            for text in texts:
                parsed = parse_unit(text, power)
                unit = unit_value(power, parsed.type, parsed.location)
                units[unit.province] = unit
        homes = self.homes
        owned = homes if self.first_centers is None else self.first_centers
        centers = {c: p for p, cs in owned.items() for c in cs}
        return Position(self.first_phase, units, centers, {}, homes, self.name)

    def position(
        self,
        phase: str | Phase,
        units: Mapping[str, Iterable[str]],
        centers: Mapping[str, Iterable[str]] | None = None,
    ) -> Position:
        """A position on this variant's map from the JSON shape (``{"ENGLAND": ["F LON"]}``);
        without ``centers`` every power owns its home centres."""
        homes = self.homes
        owned = homes if centers is None else centers
        return Position.from_lists(phase, units, owned, homes, self.name)

    def lot_drawn(self, phase: Phase) -> bool:
        """Whether the lot must have been drawn by the time ``phase`` is adjudicated."""
        return self.lot is not None and phase >= self.lot.drawn_before

    def rules_at(self, phase: Phase, joins: str | None = None) -> PhaseRules:
        """The board and the neutral powers for ``phase``; ``joins``: the power that won the lot."""
        if self.lot is None or phase < self.lot.drawn_before:
            if self.closed_board is not None:
                return PhaseRules(self.closed_board, self.neutral)
            return self._plain
        if joins is None:
            raise VariantError(
                f"{self.name}: the lot for {self.lot.power} is drawn before "
                f"{self.lot.drawn_before}; say which power it joins"
            )
        self.seat_of(joins)  # validates the power
        return PhaseRules(self.board, self.neutral - {self.lot.power})

    def seat_of(self, power: str, joins: str | None = None) -> int:
        """The index of the seat that plays ``power`` (the lot's power follows its winner)."""
        if self.lot is not None and power == self.lot.power and joins is not None:
            power = joins
        for i, seat in enumerate(self.seats):
            if power in seat:
                return i
        raise VariantError(f"{self.name}: no player plays {power}")

    def seat_powers(self, seat: int, joins: str | None = None) -> tuple[str, ...]:
        """The powers the player of ``seat`` orders (with the lot's power once it joined)."""
        powers = self.seats[seat]
        if self.lot is not None and joins is not None and joins in powers:
            powers = tuple(sorted((*powers, self.lot.power)))
        return powers

    def active_powers(self, phase: Phase, joins: str | None = None) -> tuple[str, ...]:
        """The powers somebody plays in ``phase`` (the neutral ones excluded)."""
        neutral = self.rules_at(phase, joins).neutral
        return tuple(p for p in self.powers if p not in neutral)
