"""Every game option, declared once: its name, its words in three languages, its type, its
default, how a value is checked, and the rule sets it applies to.

Read by the CREATE/SET parser (``judge.parsing.commands_options``: the keywords and the value
grammar of each type), the storage defaults (``default_game_options``), LIST and SUMMARY
(``shown_options``), HELP and the option table of docs/commands*.md (``judge.parsing.command_table``), and
the service (``judge.service.games.apply_option``: which options lock at START, which rule
sets an option applies to, and what setting it stores). A new option is one entry here and,
when storing the parsed value as it is will not do, one setter function beside it (plus, when
its type is new, one reading function in the parser).

A setter is pure: it gets the parsed value and an ``OptionContext`` (the game's stored options,
its variant, whether it is still forming) and returns the changes to store, or raises
``OptionRefused``. Keys named in ``GAME_COLUMNS`` are the game row's own columns, every other
key goes to the game's option dict. (The time-zone setter asks ``zoneinfo`` whether the zone
exists: that reads the installed time-zone database, data that ships like the variants'.)

Pure data: no I/O. Canonical values are what the game's option dict stores; each choice has
its words in the three languages (matched accent- and case-insensitively).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import get_day_names

from judge.adjudicator.catalog import DEFAULT_VARIANT, variant_names
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.variant import Variant
from judge.rules.deadline_clock import WEEKDAYS
from judge.rules.options import RuleSet


class OptionType(StrEnum):
    CHOICE = "choice"  # one of ``choices`` (canonical value -> words)
    FLAG = "flag"  # yes/no; the bare keyword means yes
    TEXT = "text"  # one word, checked by the service (a time zone)
    NAME = "name"  # one word, lower-cased, checked against what is installed (a variant)
    NUMBER = "number"  # a whole number between ``low`` and ``high``
    LATE_DAYS = "late_days"  # "total [per-turn]"
    DEADLINES = "deadlines"  # "M=72 R=24 A=24" (hours per phase kind)
    ENDING = "ending"  # centres, a date (YYYY-MM-DD) or a phase (F1910M)
    COMPUTER = "computer"  # yes/no or a power: the computer takes the seats nobody joined for
    CLOCK = "clock"  # "21:00" or "M=21:00 R=12:00 A=12:00" (time of day per phase kind), or no
    DAYS_OFF = "days_off"  # weekday names (three languages) and dates YYYY-MM-DD, or no
    HOURS_LIST = "hours_list"  # "24 2": whole hours between ``low`` and ``high``, or no
    LIMITS = "limits"  # "per-phase [per-game]" hours (up to ``high``), or no (no cap)
    ABSENCES = "absences"  # "each [per-game]" days a player may be away, or no (none allowed)


BOOL_WORDS: Mapping[str, tuple[str, ...]] = {
    "true": ("YES", "Y", "ON", "TRUE", "SI", "OUI"),
    "false": ("NO", "N", "OFF", "FALSE", "NON"),
}
# issue 30's days off: each weekday (``judge.rules.deadline_clock.WEEKDAYS``) by its names in
# en, it and fr, wide and abbreviated, from Babel's CLDR data (upper case, accents and dots
# dropped, as the parser folds what it reads)
def _weekday_words() -> dict[str, tuple[str, ...]]:
    words: dict[str, set[str]] = {day: set() for day in WEEKDAYS}
    for lang in ("en", "it", "fr"):
        for width in ("wide", "abbreviated"):
            for i, name in get_day_names(width, locale=lang).items():
                plain = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore")
                words[WEEKDAYS[i]].add(plain.decode().strip(".").upper())
    return {day: tuple(sorted(names)) for day, names in words.items()}


WEEKDAY_WORDS: Mapping[str, tuple[str, ...]] = _weekday_words()
EVERY_RULE_SET = frozenset(RuleSet)
# changes a setter returns under these keys are the game row's columns, not option-dict keys
GAME_COLUMNS = frozenset({"language", "variant"})


class OptionRefused(ValueError):
    """A value the game cannot take (the parser checked only its shape); ``str()`` is the
    value the refusal quotes."""


@dataclass(frozen=True)
class OptionContext:
    """What a setter may read about the game it changes."""

    options: Mapping[str, Any]  # the stored options, defaults filled in
    variant: Variant  # the game's variant as it stands before this line
    forming: bool  # not started yet


Setter = Callable[[Any, OptionContext], dict[str, Any]]


def _store(key: str) -> Setter:
    """The usual setter: the parsed value stored under the option's key."""
    def store(value: Any, _: OptionContext) -> dict[str, Any]:
        return {key: value}
    return store


def _set_timezone(value: Any, _: OptionContext) -> dict[str, Any]:
    try:
        ZoneInfo(str(value))
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise OptionRefused(str(value)) from exc
    return {"timezone": str(value)}


def _set_late_days(value: Any, _: OptionContext) -> dict[str, Any]:
    # seed 002's ritardo is stored as two keys: the total and (optionally) the cap per turn
    changes = {"late_bonus_days": value["total"]}
    if "per_turn" in value:
        changes["late_max_per_turn"] = value["per_turn"]
    return changes


def _set_deadlines(value: Any, ctx: OptionContext) -> dict[str, Any]:
    # "M=48" changes the movement hours and keeps the others
    return {"deadlines_hours": {**ctx.options["deadlines_hours"], **value}}


def _set_clock(value: Any, ctx: OptionContext) -> dict[str, Any]:
    # "M=21:00" sets the movement clock and keeps the others; CLOCK NO drops every clock
    if not value:
        return {"clock": {}}
    return {"clock": {**(ctx.options.get("clock") or {}), **value}}


def _set_days_off(value: Any, _: OptionContext) -> dict[str, Any]:
    # a deadline moves to the next day that is not off: at least one weekday must stay open
    days = list(value or [])
    if {d for d in days if d in WEEKDAY_WORDS} == set(WEEKDAY_WORDS):
        raise OptionRefused(" ".join(days))
    return {"days_off": days}


def _set_end(value: Any, ctx: OptionContext) -> dict[str, Any]:
    if "centres" in value and not 1 <= int(value["centres"]) <= len(ctx.variant.supply_centers):
        raise OptionRefused(str(value["centres"]))
    return {"end": dict(value)}


def _set_variant(value: Any, ctx: OptionContext) -> dict[str, Any]:
    """Only before the start; JOIN and START count the new variant's seats (a game with more
    players joined than the new variant has seats cannot START). The solo count follows the
    map unless the GM chose one."""
    name = str(value)
    if not ctx.forming or name not in variant_names():
        raise OptionRefused(name)
    new = installed_variant(name)
    bots = ctx.options.get("bots")
    if isinstance(bots, dict):
        _check_bots_fit(new, bots.get("power"))  # a solo game stays on a map it can be played on
    end = dict(ctx.options.get("end") or {})
    if end.get("centres", ctx.variant.victory) == ctx.variant.victory:
        end["centres"] = new.victory
    return {"variant": name, "victory": new.victory, "end": end}


def _set_players(value: Any, ctx: OptionContext) -> dict[str, Any]:
    # seed 001's games for fewer players are the standard map's variants standard-N
    count = int(value)
    return _set_variant(DEFAULT_VARIANT if count == 7 else f"standard-{count}", ctx)


def _set_bots(value: Any, ctx: OptionContext) -> dict[str, Any]:
    """A solo game (issue 14): only before the start, on a map of one power per seat; the
    power named is the one the creator plays (else the lot gives him one)."""
    if not ctx.forming:
        raise OptionRefused("BOTS")
    if not value:
        return {"bots": None}
    power = value.get("power")
    _check_bots_fit(ctx.variant, power)
    return {"bots": {"power": power}}


def _check_bots_fit(v: Variant, power: str | None) -> None:
    """A solo game needs one power per seat: its end rules follow one human power (his fall,
    his solo), and the computer takes whole seats; the fewer-player maps whose seats hold
    several powers (standard-2 to standard-4) are refused. The power named must be one a
    player plays (not a neutral one, like Italy in standard-6)."""
    if any(len(seat) != 1 for seat in v.seats):
        raise OptionRefused(v.name)
    if power is not None and all(power not in seat for seat in v.seats):
        raise OptionRefused(str(power))


@dataclass(frozen=True)
class OptionSpec:
    key: str  # the option's name (and its key in the game's option dict, unless ``stored``)
    words: Mapping[str, tuple[str, ...]]  # language -> keywords, the usual one first
    type: OptionType
    values: Mapping[str, str]  # language -> what the values look like (HELP, docs/commands*.md)
    # the value of a game that has not set the option (``ChosenOptions``), stored at CREATE
    # unless ``stored_at_create`` is False (None: none, and nothing stored)
    default: Any = None
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    low: int = 0
    high: int = 0
    rule_sets: frozenset[RuleSet] = EVERY_RULE_SET  # where the option means something
    locked_after_start: bool = False
    shown: bool = True  # listed by LIST and SUMMARY
    setter: Setter | None = None  # None: the parsed value stored under ``key``
    stored_at_create: bool = True

    def keyword(self, lang: str) -> str:
        return self.words[lang][0]

    def set(self, value: Any, ctx: OptionContext) -> dict[str, Any]:
        """The changes this option's value makes (``OptionRefused`` when it cannot)."""
        return (self.setter or _store(self.key))(value, ctx)

    def applies_to(self, rules: RuleSet) -> bool:
        return rules in self.rule_sets


def _w(en: str | tuple[str, ...], it: str | tuple[str, ...], fr: str | tuple[str, ...],
       ) -> dict[str, tuple[str, ...]]:
    def t(v: str | tuple[str, ...]) -> tuple[str, ...]:
        return (v,) if isinstance(v, str) else v
    return {"en": t(en), "it": t(it), "fr": t(fr)}


def _v(en: str, it: str | None = None, fr: str | None = None) -> dict[str, str]:
    return {"en": en, "it": it if it is not None else en, "fr": fr if fr is not None else en}


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("language", _w("LANGUAGE", "LINGUA", "LANGUE"), OptionType.CHOICE,
               _v("it|fr|en"),
               choices={"en": ("EN", "ENGLISH", "INGLESE", "ANGLAIS"),
                        "it": ("IT", "ITALIAN", "ITALIANO", "ITALIEN"),
                        "fr": ("FR", "FRENCH", "FRANCESE", "FRANCAIS")}),
    OptionSpec("press", _w("PRESS", "STAMPA", "PRESSE"), OptionType.CHOICE,
               _v("white|grey|none", "bianca|grigia|nessuna", "blanche|grise|aucune"),
               default="white",
               choices={"white": ("WHITE", "BIANCA", "BLANCHE", "YES", "SI", "OUI"),
                        "grey": ("GREY", "GRAY", "GRIGIA", "GRISE"),
                        "none": ("NONE", "NO", "NESSUNA", "AUCUNE", "NON")}),
    OptionSpec("blind", _w("BLIND", ("BUIO", "AL BUIO"), "AVEUGLE"), OptionType.FLAG,
               _v("yes|no", "si|no", "oui|non"), default=False, locked_after_start=True),
    OptionSpec("deadlines_hours", _w("DEADLINES", "SCADENZE", "ECHEANCES"),
               OptionType.DEADLINES,
               _v("M=72 R=24 A=24 (hours)", "M=72 R=24 A=24 (ore)", "M=72 R=24 A=24 (heures)"),
               default={"M": 72, "R": 24, "A": 24}, setter=_set_deadlines),
    # issue 30: the time of day at which deadlines fall (njudge's CLOCK); DEADLINES stays the
    # minimum hours after processing (judge.rules.deadline_clock)
    OptionSpec("clock", _w("CLOCK", "ORARIO", "HORAIRE"), OptionType.CLOCK,
               _v("21:00 | M=21:00 R=12:00 A=12:00 | no (time of day of the deadlines, "
                  "in the game's time zone)",
                  "21:00 | M=21:00 R=12:00 A=12:00 | no (ora del giorno delle scadenze, nel "
                  "fuso orario della partita)",
                  "21:00 | M=21:00 R=12:00 A=12:00 | non (heure des échéances, dans le "
                  "fuseau horaire de la partie)"), default={}, setter=_set_clock),
    # issue 30: days on which no deadline falls (njudge's DAYS); one moves to the next day
    OptionSpec("days_off", _w(("DAYS OFF", "DAYSOFF"), ("GIORNI LIBERI", "GIORNI DI RIPOSO"),
                              ("JOURS LIBRES", "JOURS DE REPOS")), OptionType.DAYS_OFF,
               _v("sat sun 2027-12-25 | no (no deadline on these days)",
                  "sab dom 2027-12-25 | no (nessuna scadenza in questi giorni)",
                  "sam dim 2027-12-25 | non (aucune échéance ces jours-là)"),
               default=[], setter=_set_days_off),
    # issue 30 point 5: reminders this many hours before each deadline, each only to the
    # players whose powers still have no orders (judge.service.wakeups.remind)
    OptionSpec("reminders", _w(("REMINDERS", "REMINDER"), "PROMEMORIA", ("RAPPELS", "RAPPEL")),
               OptionType.HOURS_LIST,
               _v("24 2 | no (hours before each deadline; only to players without orders)",
                  "24 2 | no (ore prima di ogni scadenza; solo a chi non ha dato ordini)",
                  "24 2 | non (heures avant chaque échéance ; seulement à qui n'a pas donné "
                  "d'ordres)"), default=[24], low=1, high=336),
    # issue 30 point 4: caps on the GM's EXTEND / SET DEADLINE and PAUSE (judge.rules.gm_clock)
    OptionSpec("extension_limit", _w("EXTENSION LIMIT", "LIMITE PROROGHE",
                                     "LIMITE PROLONGATIONS"), OptionType.LIMITS,
               _v("per-phase [per-game] hours | no (caps on the GM's extensions)",
                  "per-fase [per-partita] ore | no (limiti alle proroghe dell'arbitro)",
                  "par-phase [par-partie] heures | non (plafonds des prolongations de "
                  "l'arbitre)"), default={}, high=8760),
    OptionSpec("pause_limit", _w("PAUSE LIMIT", "LIMITE PAUSA", "LIMITE PAUSE"),
               OptionType.LIMITS,
               _v("per-phase [per-game] hours | no (caps on the GM's pauses; a pause ends by "
                  "itself at its cap)",
                  "per-fase [per-partita] ore | no (limiti alle pause dell'arbitro; una pausa "
                  "finisce da sé al limite)",
                  "par-phase [par-partie] heures | non (plafonds des pauses de l'arbitre ; une "
                  "pause finit d'elle-même au plafond)"), default={}, high=8760),
    # issue 30 point 3: how long one ABSENCE may last and how many days a player may be away
    # in the whole game (njudge's SET ABSENCE); ABSENCE LIMIT no: absences are refused
    OptionSpec("absence_limit", _w("ABSENCE LIMIT", "LIMITE ASSENZE", "LIMITE ABSENCES"),
               OptionType.ABSENCES,
               _v("each [per-game] days | no (14 28: an absence of up to 14 days, 28 in the game)",
                  "ciascuna [per-partita] giorni | no (14 28: un'assenza fino a 14 giorni, 28 "
                  "nella partita)",
                  "chacune [par-partie] jours | non (14 28 : une absence jusqu'à 14 jours, 28 "
                  "dans la partie)"), default={"each": 14, "game": 28}, high=365),
    # issue 30 point 6: the least reliability (phases ordered in, out of those owed, over all
    # his games) a player needs to JOIN; a newcomer without a record may join
    OptionSpec("min_reliability", _w(("MIN RELIABILITY", "RELIABILITY"),
                                     ("AFFIDABILITA MINIMA", "AFFIDABILITA"),
                                     ("FIABILITE MINIMALE", "FIABILITE")), OptionType.NUMBER,
               _v("0..100 (percent of phases a player ordered in over his games, to JOIN)",
                  "0..100 (percentuale di fasi in cui il giocatore ha dato ordini, per "
                  "ISCRIVI)",
                  "0..100 (pourcentage de phases où le joueur a donné ses ordres, pour "
                  "INSCRIRE)"), low=0, high=100, shown=False),
    OptionSpec("timezone", _w(("TIMEZONE", "TIME ZONE"), ("FUSO", "FUSO ORARIO"),
                              ("FUSEAU", "FUSEAU HORAIRE")), OptionType.TEXT,
               _v("Europe/Rome", "Europe/Rome", "Europe/Paris"), default="Europe/Rome",
               setter=_set_timezone),
    # seed 002's ritardo; stored as two keys (late_bonus_days, late_max_per_turn)
    OptionSpec("late_days", _w(("LATEDAYS", "LATE DAYS"), ("GIORNI RITARDO", "RITARDI"),
                               ("JOURS RETARD", "RETARDS")), OptionType.LATE_DAYS,
               _v("total per-turn", "totale per-turno", "total par-tour"),
               default={"late_bonus_days": 10, "late_max_per_turn": 3},
               setter=_set_late_days),
    OptionSpec("end", _w(("ENDING", "END AT"), ("CHIUSURA", "FINE A"), ("CLOTURE", "FIN A")),
               OptionType.ENDING,
               _v("18 | YYYY-MM-DD | F1910M", "18 | AAAA-MM-GG | F1910M",
                  "18 | AAAA-MM-JJ | F1910M"), default={"centres": 18}, setter=_set_end),
    OptionSpec("assignment", _w("ASSIGNMENT", "ASSEGNAZIONE", "ATTRIBUTION"), OptionType.CHOICE,
               _v("lot|preferences", "sorteggio|preferenze", "tirage|preferences"),
               default="lot", locked_after_start=True,
               choices={"lot": ("LOT", "RANDOM", "SORTEGGIO", "TIRAGE", "HASARD"),
                        "preferences": ("PREFERENCES", "PREFERENZE", "PREFS")}),
    OptionSpec("rules", _w("RULES", "REGOLE", "REGLES"), OptionType.CHOICE,
               _v("italian|rulebook|french", "italiane|regolamento|francesi",
                  "italiennes|livre|francaises"), default="italian",
               choices={"italian": ("ITALIAN", "ITALIANE", "ITALIANO", "ITALIENNES", "CLUB"),
                        "rulebook": ("RULEBOOK", "REGOLAMENTO", "LIVRE", "STANDARD", "2008"),
                        "french": ("FRENCH", "FRANCESI", "FRANCESE", "FRANCAISES",
                                   "FRANCAIS")}),
    OptionSpec("gm_reads_press", _w(("GMPRESS", "GM PRESS"), "STAMPA ARBITRO", "PRESSE ARBITRE"),
               OptionType.FLAG,
               _v("yes|no (GM gets a copy of all press)",
                  "si|no (l'arbitro riceve copia di tutta la stampa)",
                  "oui|non (l'arbitre reçoit copie de toute la presse)"), default=False,
               stored_at_create=False, shown=False),
    OptionSpec("variant", _w("VARIANT", "VARIANTE", "VARIANTE"), OptionType.NAME,
               _v("a map's name: standard, ancmed, youngstown... (HELP VARIANTS lists them; "
                  "before START)",
                  "il nome di una mappa: standard, ancmed, youngstown... (AIUTO VARIANTI le "
                  "elenca; prima di INIZIA)",
                  "le nom d'une carte : standard, ancmed, youngstown... (AIDE VARIANTES les "
                  "liste ; avant COMMENCER)"), locked_after_start=True,
               setter=_set_variant),
    OptionSpec("players", _w("PLAYERS", "GIOCATORI", "JOUEURS"), OptionType.NUMBER,
               _v("2..7 (seed 001's games for fewer players; before START)",
                  "2..7 (le partite a meno giocatori del regolamento; prima di INIZIA)",
                  "2..7 (les parties a moins de joueurs de la regle ; avant COMMENCER)"),
               low=2, high=7, locked_after_start=True, shown=False, setter=_set_players),
    # the final bulletin's scores (judge.service.ending.scores)
    OptionSpec("scoring", _w("SCORING", "PUNTEGGIO", "DECOMPTE"), OptionType.CHOICE,
               _v("hundred|draw|squares (the final bulletin's scores)",
                  "cento|patta|quadrati (i punti del bollettino finale)",
                  "cent|nulle|carres (les points du bulletin final)"), default="hundred",
               choices={"hundred": ("HUNDRED", "100", "CENTO", "CENT", "C-DIPLO"),
                        "draw_size": ("DRAW", "DRAWSIZE", "DSS", "PATTA", "NULLE"),
                        "sum_of_squares": ("SQUARES", "SOS", "QUADRATI", "CARRES")}),
    # the house rules' waits, in hours (docs/house-rules.md: ONP, two strikes; read by snapshot_rows)
    OptionSpec("replacement_wait_hours", _w("REPLACEMENT WAIT", "ATTESA SOSTITUTO",
                                            "ATTENTE REMPLACANT"), OptionType.NUMBER,
               _v("168 (hours the game waits for a replacement)",
                  "168 (ore di attesa di un sostituto)",
                  "168 (heures d'attente d'un remplaçant)"),
               default=168, stored_at_create=False,
               low=1, high=672, rule_sets=frozenset({RuleSet.ITALIAN}), shown=False),
    OptionSpec("replacement_grace_hours", _w("REPLACEMENT GRACE", "PROROGA SOSTITUTO",
                                             "DELAI REMPLACANT"), OptionType.NUMBER,
               _v("168 (the newcomer's extra hours)", "168 (le ore in più del sostituto)",
                  "168 (les heures en plus du remplaçant)"),
               default=168, stored_at_create=False, low=1, high=672,
               rule_sets=frozenset({RuleSet.ITALIAN}), shown=False),
    OptionSpec("sommossa_resume_hours", _w("SOMMOSSA VOTE", "VOTO SOMMOSSA", "VOTE SOMMOSSA"),
               OptionType.NUMBER,
               _v("48 (hours to send FOR orders once Sommossa is declared)",
                  "48 (ore per gli ordini PER dopo la Sommossa)",
                  "48 (heures pour les ordres POUR après la Sommossa)"),
               default=48, stored_at_create=False, low=1, high=672,
               rule_sets=frozenset({RuleSet.ITALIAN}), shown=False),
    # how civil-disorder and automatic removals count distance: to the home centres (2008
    # rulebook, seed 000, seed 002) or to the owned ones (2023 rulebook, DATC 3.0 6.J)
    OptionSpec("removal_distance", _w(("REMOVALS", "REMOVAL DISTANCE"),
                                      ("RIMOZIONI", "DISTANZA RIMOZIONI"),
                                      ("RETRAITS", "DISTANCE RETRAITS")), OptionType.CHOICE,
               _v("home|owned (civil-disorder removals: distance to home or owned centres)",
                  "origine|posseduti (rimozioni d'ufficio: distanza dai centri d'origine o "
                  "posseduti)",
                  "origine|possedes (retraits d'office : distance aux centres d'origine ou "
                  "possedes)"), default="home",
               choices={"home": ("HOME", "ORIGINE", "CASA"),
                        "owned": ("OWNED", "POSSEDUTI", "POSSEDES", "2023")}),
    # issue 26: where powers build, DPjudge's switches as a house rule on any map (Chaos-style
    # builds anywhere on the standard board); not stored unless chosen: the variant's rule
    OptionSpec("builds", _w("BUILDS", "COSTRUZIONI", "CONSTRUCTIONS"), OptionType.CHOICE,
               _v("home|any|homes|remote (where powers build: own home centres; any owned "
                  "centre; any owned home centre of any power; any owned centre while owning a "
                  "home centre; before START)",
                  "origine|ovunque|origini|remote (dove si costruisce: i propri centri "
                  "d'origine; ogni centro posseduto; ogni centro d'origine di qualunque potenza "
                  "posseduto; ogni centro posseduto finché se ne possiede uno d'origine; prima "
                  "di INIZIA)",
                  "origine|partout|origines|distance (où l'on construit : ses centres "
                  "d'origine ; tout centre possédé ; tout centre d'origine d'une puissance "
                  "possédé ; tout centre possédé tant qu'on possède un centre d'origine ; "
                  "avant COMMENCER)"),
               choices={"home": ("HOME", "ORIGINE", "CASA"),
                        "any": ("ANY", "OVUNQUE", "PARTOUT", "BUILD_ANY"),
                        "homes": ("HOMES", "ORIGINI", "ORIGINES", "HOME_BUILDS"),
                        "remote": ("REMOTE", "REMOTE_BUILDS", "DISTANCE")},
               locked_after_start=True, shown=False),
    # issue 14: a solo game against the computer powers (the power named is the creator's)
    OptionSpec("bots", _w("BOTS", ("AUTOMI", "CONTRO COMPUTER"), ("ROBOTS", "CONTRE ORDINATEUR")),
               OptionType.COMPUTER,
               _v("yes|no|power: a solo game, you against the computer powers (before START; "
                  "power: the one you play)",
                  "si|no|potenza: partita in solitario contro le potenze del computer (prima "
                  "di INIZIA; potenza: quella che giochi)",
                  "oui|non|puissance : partie en solitaire contre les puissances de "
                  "l'ordinateur (avant COMMENCER ; puissance : celle que vous jouez)"),
               locked_after_start=True, setter=_set_bots),
    # issue 14: off by default, so the Sommossa of the italian rules stays the default
    OptionSpec("computer_seats", _w("COMPUTER SEATS", "POSTI COMPUTER", "PLACES ORDINATEUR"),
               OptionType.FLAG,
               _v("yes|no (default no): the GM may give a vacant or abandoned seat to the "
                  "computer with REPLACE power COMPUTER",
                  "si|no (predefinito no): l'arbitro può affidare al computer un posto "
                  "vacante o abbandonato con SOSTITUISCI potenza COMPUTER",
                  "oui|non (non par défaut) : l'arbitre peut confier à l'ordinateur une place "
                  "vacante ou abandonnée avec REMPLACER puissance ORDINATEUR"),
               default=False),
)

_BY_KEY = {o.key: o for o in OPTIONS}


def option(key: str) -> OptionSpec:
    return _BY_KEY[key]


def default_options() -> dict[str, Any]:
    """What CREATE stores: every option with a default, in its stored shape."""
    out: dict[str, Any] = {}
    for spec in OPTIONS:
        if spec.default is None or not spec.stored_at_create:
            continue
        if spec.type is OptionType.LATE_DAYS:
            out.update(spec.default)
        elif isinstance(spec.default, dict):
            out[spec.key] = dict(spec.default)
        elif isinstance(spec.default, list):
            out[spec.key] = list(spec.default)
        else:
            out[spec.key] = spec.default
    return out


def shown_options(rules: RuleSet) -> tuple[OptionSpec, ...]:
    """The options LIST and SUMMARY show for a game played with ``rules``."""
    return tuple(o for o in OPTIONS if o.shown and o.applies_to(rules))


def locked_after_start() -> frozenset[str]:
    return frozenset(o.key for o in OPTIONS if o.locked_after_start)
