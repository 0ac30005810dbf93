"""A reader of DPjudge's ``.map`` dialect (the one MILA's ``diplomacy`` engine also reads).

Pure: ``read_map(name, resolve)`` takes the file's name and a function that returns the text of a
file by name (the file itself and whatever it includes with ``USE``/``MAP``); it touches no disk.
The result is the map as the dialect states it (``MapFile``); ``map_import.py`` turns it into a
variant folder's ``map.json`` and ``variant.json``.

What the dialect says, as DPjudge reads it:

- ``# ...`` comment lines; ``USE``/``USES file...`` and ``MAP name`` read another file in place
  (``name`` without a dot means ``name.map``).
- ``Full Name = abr alias...``: a location, its abbreviation first; ``OLD -> Full Name = abr ...``
  renames location ``OLD`` everywhere (adjacencies, homes, units).
- ``WATER|LAND|COAST|PORT|SHUT abr ABUTS x y ...``: a location's type and adjacencies, case-coded:
  an entry in lower case is reached by armies only, one in mixed case (``Tar``) by fleets only;
  a location written in lower case (``bul``) is the province of a split coast (``BUL/EC``), where
  armies stand and fleets do not. ``AMEND abr ABUTS ...`` adds adjacencies, ``-x`` removes them.
  ``DROP abr...`` removes locations (and their coasts) from everything.
- ``POWER [(ADJECTIVE[:L])] home...`` declares a power (or names the current one, for the unit
  lines ``A xxx``/``F xxx`` that follow; a unit line moves any unit already at that place);
  ``UNOWNED|NEUTRAL centre...`` neutral centres; ``OWNS``/``CENTERS``, ``HOME``/``HOMES``/
  ``INHABITS``, ``UNITS``, ``DUMMY [ALL [EXCEPT p...]|p...]``, ``UNPLAYED ...`` as in DPjudge.
- ``BEGIN SEASON YEAR TYPE``, ``VICTORY n``, ``RULE switch...``, ``FLOW season:types``.
- ``FLAG``/``FLAGS`` (the drawing's flags) and ``NOTIFY`` (the map's maintainer) concern
  DPjudge's server and pictures, not the game: read and kept, nothing more.

- ``*X`` in an ABUTS list (``1900.map``'s ``EGY ABUTS ... *MAO``): DPjudge's "Cape of Good Hope"
  link, kept in ``weak`` as (from, to) provinces (``geography.Board.weak_links`` says what it
  means in play). ``*X`` among a power's homes (``RUSSIA ... *SIB``): a partisan site, kept in
  ``PowerDecl.partisans`` (``Board.partisans``).

Anything else stops the reader with ``MapError`` naming the file, the line and the directive: a
directive of DPjudge's this reader does not implement (``NEWHOMES``, ``RESERVES``, ...), another
special adjacency (``~``, ``:``...), a ``FLOW`` other than the standard year, or a line that is
no directive at all. It never guesses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# the standard year, the only FLOW this reader plays (the phases of ``phase.py``)
STANDARD_FLOW = ("SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")

# DPjudge directives this reader knows it does not implement: named when they stop it
UNIMPLEMENTED = frozenset(
    {
        "NEWHOMES", "RESERVES", "MILITIA", "DIRECTIVE", "ROTATE", "INCOME", "FACTORIES",
        "PARTISANS", "DEMOTE", "CONTROL", "SHIFT", "NOTE", "NEUTRALS",
    }
)

TYPES = ("WATER", "LAND", "COAST", "PORT", "SHUT")


class MapError(ValueError):
    """The ``.map`` text says something this reader does not play: ``file:line: DIRECTIVE ...``."""


@dataclass
class PowerDecl:
    code: str  # upper case, spaces removed, as DPjudge normalises it (``STPETERSBURG``)
    name: str  # as written, ``+`` read as a space (``St Petersburg``)
    adjective: str  # the word in brackets, or the name
    letter: str  # the one-letter abbreviation after ``:``, or ""
    homes: list[str] = field(default_factory=list)
    partisans: list[str] = field(default_factory=list)  # ``*SIB``: partisan sites, no centres
    where: tuple[str, int] = ("", 0)  # the file and line that declared it


@dataclass
class MapFile:
    """The map as its ``.map`` files state it (DPjudge's tables, before any conversion)."""

    name: str
    files: list[str] = field(default_factory=list)
    # location key as written (``bul``, ``BUL/EC``, ``ALB``) -> WATER | LAND | COAST | PORT | SHUT
    types: dict[str, str] = field(default_factory=dict)
    # location key -> its ABUTS entries, case-coded as written
    abuts: dict[str, list[str]] = field(default_factory=dict)
    # abbreviation (upper case) -> its full name and aliases
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    powers: dict[str, PowerDecl] = field(default_factory=dict)
    units: dict[str, list[str]] = field(default_factory=dict)
    owns: dict[str, list[str]] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    dummies: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    begin: str = "SPRING 1901 MOVEMENT"
    victory: int | None = None
    flow: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    # the "Cape of Good Hope" links (``*MAO`` in EGY's ABUTS): (from, to) provinces, upper case
    weak: list[tuple[str, str]] = field(default_factory=list)
    # where each RULE switch and each OWNS/CENTERS line was read (file, line), for errors
    where: dict[str, tuple[str, int]] = field(default_factory=dict)

    def supply_centers(self) -> list[str]:
        seen: dict[str, None] = {}
        for decl in self.powers.values():
            seen.update(dict.fromkeys(decl.homes))
        for owned in self.owns.values():
            seen.update(dict.fromkeys(owned))
        seen.update(dict.fromkeys(self.unowned))
        return sorted(seen)


def _norm_power(word: str) -> str:
    return word.upper().replace("+", "").replace(" ", "")


class _MapReader:
    def __init__(self, name: str, resolve: Callable[[str], str]) -> None:
        self.map = MapFile(name=name.rsplit(".", 1)[0])
        self.resolve = resolve
        self.power: str | None = None
        # (home token, file, line, the line's first word): checked at the end
        self.pending: list[tuple[str, str, int, str]] = []

    def fail(self, file: str, line: int, directive: str, why: str) -> MapError:
        return MapError(f"{file}:{line}: {directive}: {why}")

    def read(self, file: str) -> None:
        if file in self.map.files:
            raise MapError(f"{file}: read twice (USE/MAP names it again)")
        self.map.files.append(file)
        try:
            text = self.resolve(file)
        except (OSError, KeyError) as exc:
            raise MapError(f"{file}: cannot read it ({exc})") from exc
        for number, raw in enumerate(text.splitlines(), 1):
            words = raw.split()
            if not words or words[0].startswith("#"):
                continue
            self.line(file, number, raw, words)

    def line(self, file: str, n: int, raw: str, words: list[str]) -> None:
        up = words[0].upper()
        m = self.map
        if up in ("USE", "USES", "MAP"):
            for other in words[1:]:
                self.read(other if "." in other else f"{other}.map")
        elif up == "VICTORY":
            if len(words) != 2 or not words[1].isdigit():
                raise self.fail(file, n, up, "one number of centres expected")
            m.victory = int(words[1])
        elif up == "BEGIN":
            m.begin = " ".join(words[1:]).upper()
        elif up in ("RULE", "RULES"):
            for switch in (w.upper() for w in words[1:]):
                m.rules.append(switch)
                m.where.setdefault(f"RULE {switch}", (file, n))
        elif up == "FLOW":
            for step in (w.upper() for w in words[1:]):
                if step not in STANDARD_FLOW:
                    raise self.fail(
                        file, n, up, f"{step}: only the standard year "
                        f"({' '.join(STANDARD_FLOW)}) is implemented"
                    )
                m.flow.append(step)
        elif up in ("FLAG", "FLAGS"):
            m.flags.extend(words[1:])
        elif up == "NOTIFY":
            pass  # the maintainer's address on DPjudge's server: nothing to play
        elif "=" in raw:
            self.location_name(file, n, raw)
        elif up in ("OWNS", "CENTERS"):
            power = self.need_power(file, n, up)
            m.where.setdefault(f"{up} {power}", (file, n))
            centres = [w.upper() for w in words[1:]]
            if up == "CENTERS" or power not in m.owns:
                m.owns[power] = centres
            else:
                m.owns[power] += [c for c in centres if c not in m.owns[power]]
        elif up in ("INHABITS", "HOME", "HOMES"):
            power = self.need_power(file, n, up)
            m.powers[power].homes = []
            m.powers[power].partisans = []
            self.add_homes(power, words[1:], file, n, up)
        elif up == "UNITS":
            m.units[self.need_power(file, n, up)] = []
        elif up in ("A", "F"):
            power = self.need_power(file, n, up)
            if len(words) != 2:
                raise self.fail(file, n, up, "a unit line is A|F and one location")
            unit = f"{up} {words[1].upper()}"
            prov = words[1].upper().split("/")[0]
            for units in m.units.values():
                units[:] = [u for u in units if u.split()[1].split("/")[0] != prov]
            m.units.setdefault(power, []).append(unit)
        elif up in ("DUMMY", "DUMMIES"):
            self.dummy(file, n, up, words)
        elif up == "DROP":
            for place in words[1:]:
                self.drop(place.upper())
        elif up in TYPES or up == "AMEND":
            self.terrain(file, n, up, words)
        elif up == "UNPLAYED":
            self.unplayed(file, n, words)
        elif up in UNIMPLEMENTED:
            raise self.fail(file, n, up, "a DPjudge directive this reader does not implement")
        else:
            self.power_line(file, n, words)

    def need_power(self, file: str, n: int, directive: str) -> str:
        if self.power is None:
            raise self.fail(file, n, directive, "comes before any power line")
        return self.power

    def location_name(self, file: str, n: int, raw: str) -> None:
        m = self.map
        left, _, right = raw.partition("=")
        words = right.split()
        if not words:
            raise self.fail(file, n, "=", "a location name needs an abbreviation")
        old = None
        if "->" in left:
            old, _, left = (p.strip() for p in left.partition("->"))
            if not old or "->" in left:
                raise self.fail(file, n, "->", "rename as OLD -> Name = abr ...")
        name = " ".join(left.replace("+", " ").split())
        abbr = words[0].upper()
        if old is not None:
            self.rename(old.upper(), abbr.split("/")[0])
        if abbr in m.names and old is None:
            raise self.fail(file, n, abbr, f"location named twice ({m.names[abbr]!r}, {name!r})")
        m.names[abbr] = name
        m.aliases[abbr] = [w.lower() for w in words[1:]]

    def rename(self, old: str, new: str) -> None:
        """``OLD -> Name = new``: every mention of location ``old`` becomes ``new``."""
        m = self.map

        def swap(loc: str) -> str:
            head, sep, tail = loc.partition("/")
            if head.upper() != old:
                return loc
            lead = head.lstrip("-")
            sign = head[: len(head) - len(lead)]
            if lead.islower():
                repl = new.lower()
            elif lead.isupper():
                repl = new
            else:
                repl = new.title()
            return sign + repl + sep + tail

        m.types = {swap(k): v for k, v in m.types.items()}
        m.abuts = {swap(k): [swap(x) for x in v] for k, v in m.abuts.items()}
        m.names = {swap(k): v for k, v in m.names.items()}
        m.aliases = {swap(k): v for k, v in m.aliases.items()}
        for decl in m.powers.values():
            decl.homes = [swap(h) for h in decl.homes]
            decl.partisans = [swap(h) for h in decl.partisans]
        m.weak = [(swap(a), swap(b)) for a, b in m.weak]
        for units in m.units.values():
            units[:] = [f"{u.split()[0]} {swap(u.split()[1])}" for u in units]
        for owned in m.owns.values():
            owned[:] = [swap(c) for c in owned]
        m.unowned[:] = [swap(c) for c in m.unowned]

    def terrain(self, file: str, n: int, up: str, words: list[str]) -> None:
        m = self.map
        if len(words) < 2:
            raise self.fail(file, n, up, "a location is needed")
        place = words[1]
        if len(words) > 2 and words[2].upper() != "ABUTS":
            raise self.fail(file, n, up, f"ABUTS expected after {place}, not {words[2]}")
        other = place.swapcase()
        if other in m.types and other != place:
            # the province re-declared in the other case (``bul`` / ``BUL``): it replaces it,
            # and a province re-declared in upper case has no split coasts any more
            m.types[place] = m.types.pop(other)
            m.abuts[place] = m.abuts.pop(other, [])
            if up != "AMEND" and place.isupper():
                for coast in [k for k in m.types if k.upper().startswith(place + "/")]:
                    self.drop(coast.upper())
        if up == "AMEND":
            if place not in m.types:
                raise self.fail(file, n, up, f"no location {place} to amend")
        else:
            m.types[place] = up
            if len(words) > 2 or place not in m.abuts:
                m.abuts[place] = []
        for entry in words[3:]:
            if entry.startswith("*"):
                entry = entry[1:]
                if not entry or not entry[0].isalpha():
                    raise self.fail(file, n, up, f"*{entry}: a '*' adjacency names a location")
                link = (place.upper().split("/")[0], entry.upper().split("/")[0])
                if link not in m.weak:
                    m.weak.append(link)
            elif not entry[0].isalpha() and not entry.startswith("-"):
                raise self.fail(
                    file, n, up, f"{entry}: this special adjacency is not implemented"
                )
            if entry.startswith("-"):
                gone = entry[1:].upper()
                m.abuts[place] = [x for x in m.abuts[place] if not x.upper().startswith(gone)]
            else:
                m.abuts[place].append(entry)

    def drop(self, place: str) -> None:
        m = self.map

        def hit(loc: str) -> bool:
            return loc.upper().startswith(place)

        m.types = {k: v for k, v in m.types.items() if not hit(k)}
        m.abuts = {k: [x for x in v if not hit(x)] for k, v in m.abuts.items() if not hit(k)}
        m.names = {k: v for k, v in m.names.items() if not hit(k)}
        m.aliases = {k: v for k, v in m.aliases.items() if not hit(k)}
        for decl in m.powers.values():
            decl.homes = [h for h in decl.homes if not hit(h)]
            decl.partisans = [h for h in decl.partisans if not hit(h)]
        m.weak = [(a, b) for a, b in m.weak if not hit(a) and not hit(b)]
        for units in m.units.values():
            units[:] = [u for u in units if not hit(u.split()[1])]
        for owned in m.owns.values():
            owned[:] = [c for c in owned if not hit(c)]
        m.unowned[:] = [c for c in m.unowned if not hit(c)]

    def dummy(self, file: str, n: int, up: str, words: list[str]) -> None:
        m = self.map
        names = [w.upper() for w in words[1:]]
        if not names:
            m.dummies.append(self.need_power(file, n, up))
            return
        self.power = None
        if names[0] != "ALL":
            m.dummies += [_norm_power(p) for p in names]
        elif len(names) == 1:
            m.dummies = list(m.powers)
        elif names[1] == "EXCEPT" and len(names) > 2:
            keep = {_norm_power(p) for p in names[2:]}
            m.dummies = [p for p in m.powers if p not in keep]
        else:
            raise self.fail(file, n, up, "DUMMY ALL EXCEPT power... expected")

    def unplayed(self, file: str, n: int, words: list[str]) -> None:
        m = self.map
        names = [w.upper() for w in words[1:]]
        if not names:
            goners = [self.need_power(file, n, "UNPLAYED")]
        elif names[0] != "ALL":
            goners = [_norm_power(p) for p in names]
        elif len(names) == 1:
            goners = list(m.powers)
        elif names[1] == "EXCEPT" and len(names) > 2:
            keep = {_norm_power(p) for p in names[2:]}
            goners = [p for p in m.powers if p not in keep]
        else:
            raise self.fail(file, n, "UNPLAYED", "UNPLAYED ALL EXCEPT power... expected")
        for goner in goners:
            if goner not in m.powers:
                raise self.fail(file, n, "UNPLAYED", f"no power {goner}")
            # its home centres stay on the board, unowned (DPjudge: they become neutral)
            for home in m.powers.pop(goner).homes:
                if home not in m.unowned:
                    m.unowned.append(home)
            m.units.pop(goner, None)
            m.owns.pop(goner, None)
            m.dummies = [d for d in m.dummies if d != goner]
        self.power = None

    def add_homes(
        self, power: str | None, tokens: list[str], file: str, n: int, first: str = ""
    ) -> None:
        m = self.map
        tokens_of_line = [first.upper()] if first else []
        for token in tokens:
            word = token.upper()
            remove = word.startswith("-")
            word = word.lstrip("-")
            partisan = word.startswith("*")
            word = word.lstrip("*")
            if not word:
                continue
            if partisan:
                # DPjudge's partisan site: no centre, a place to build while the power has lost
                # some but not all of its homes (``geography.Board.partisans``)
                if power is None:
                    raise self.fail(file, n, token, "an unowned partisan site")
                sites = m.powers[power].partisans
                if word in sites:
                    sites.remove(word)
                if not remove:
                    sites.append(word)
                continue
            self.pending.append((word, file, n, tokens_of_line[0] if tokens_of_line else ""))
            if power is None:
                if word not in m.unowned and not remove:
                    m.unowned.append(word)
                continue
            homes = m.powers[power].homes
            if word in homes:
                homes.remove(word)
            if word in m.unowned:
                m.unowned.remove(word)
            if not remove:
                homes.append(word)
            else:
                m.unowned.append(word)  # a home taken away stays a centre, unowned (DPjudge)

    def power_line(self, file: str, n: int, words: list[str]) -> None:
        m = self.map
        up = words[0].upper()
        if up in ("UNOWNED", "NEUTRAL", "CENTERS"):
            self.power = None
            self.add_homes(None, words[1:], file, n, words[0])
            return
        if len(words) > 2 and words[1] == "->":
            raise self.fail(file, n, up, "renaming a power is not implemented")
        code = _norm_power(words[0])
        rest = words[1:]
        adjective, letter = "", ""
        if rest and rest[0].startswith("("):
            inner = rest[0]
            if not inner.endswith(")"):
                raise self.fail(file, n, up, f"unbalanced {inner}")
            inner = inner[1:-1]
            adjective, _, letter = inner.partition(":")
            rest = rest[1:]
        if code not in m.powers:
            m.powers[code] = PowerDecl(
                code=code,
                name=words[0].replace("+", " ").replace("_", " ").strip(),
                adjective=adjective.replace("+", " ") or words[0].replace("+", " "),
                letter=letter[:1].upper(),
                where=(file, n),
            )
        else:
            decl = m.powers[code]
            if adjective:
                decl.adjective = adjective.replace("+", " ")
            if letter:
                decl.letter = letter[:1].upper()
        self.power = code
        self.add_homes(code, rest, file, n, words[0])

    def finish(self) -> MapFile:
        m = self.map
        provinces = {k.upper().split("/")[0] for k in m.types}
        live = set(m.unowned).union(*(d.homes for d in m.powers.values()))
        for token, file, n, first in self.pending:
            if token in live and token.split("/")[0] not in provinces:
                # a "power line" whose words are no locations is a directive nobody knows
                raise MapError(
                    f"{file}:{n}: {first}: unknown directive (or a power whose home {token} is "
                    "no location of the map)"
                )
        for decl in m.powers.values():
            if not decl.homes and not m.units.get(decl.code):
                file, n = decl.where
                raise MapError(f"{file}:{n}: unknown directive {decl.name.upper()}")
        for power in m.dummies:
            if power not in m.powers:
                raise MapError(f"{m.name}: DUMMY {power}: no such power")
        return m


def read_map(name: str, resolve: Callable[[str], str]) -> MapFile:
    """The map of file ``name`` (``ancmed.map``), its includes read through ``resolve``."""
    reader = _MapReader(name, resolve)
    reader.read(name)
    return reader.finish()
