"""The DPjudge ``.map`` reader and the shipped variants checked against the ``.map`` they came from.

For each shipped DPjudge variant the ``.map`` is read again from ``../shared/variants`` and
DPjudge's adjacency rule (its ``abuts``: entries in lower case are for armies only, in mixed
case for fleets only; armies never enter water, fleets never land; a split coast's province is
written in lower case and fleets stand on its coasts only) is applied to the file's tables here,
written out on its own, then compared with the shipped board: every army move and every fleet
move, from every location, both ways; every split coast; every home centre, supply centre and
starting unit.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from judge.adjudicator.catalog import variant, variant_names
from judge.adjudicator.geography import load_board
from judge.adjudicator.jsonio import RequestError, adjudicate_json
from judge.adjudicator.map_import import power_colours
from judge.adjudicator.mapfile import MapError, MapFile, read_map
from judge.adjudicator.orders import Move
from judge.adjudicator.possible import all_possible_orders
from judge.cli import main
from tests.conftest import SHARED

LIBRARY = SHARED / "variants" / "dpjudge"
IMPORTED = {
    "ancmed": "ancmed", "modern": "modern", "youngstown": "youngstown", "chaos": "chaos",
    "fleetrome": "fleetrome", "milan": "milan", "canton": "canton", "crowded": "crowded",
    "fiveman": "fiveman", "britain": "britain", "sengoku": "sengoku",
    "aberration": "aberration", "v8": "v8", "chromatic": "chromatic",
    "shiftaround": "shiftaround", "1900": "1900",
}


def _read(name: str) -> MapFile:
    return read_map(f"{name}.map", lambda f: (LIBRARY / f).read_text("latin-1"))


def _dpjudge_moves(m: MapFile) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(army moves, fleet moves) as DPjudge's rule reads the file's tables."""
    types = m.types
    kind_of = {k.upper().split("/")[0]: t for k, t in types.items() if "/" not in k}
    army: set[tuple[str, str]] = set()
    fleet: set[tuple[str, str]] = set()
    for key, entries in m.abuts.items():
        here = key.upper()
        army_here = "/" not in key and types[key] in ("LAND", "COAST", "PORT")
        fleet_here = types[key] in ("WATER", "COAST", "PORT") and (
            "/" in key or key.lower() not in m.abuts
        )
        for entry in entries:
            there = entry.upper()
            prov = there.split("/")[0]
            if prov == here.split("/")[0]:
                continue  # no province borders itself (a slip in a few maps)
            if army_here and entry != entry.title() and kind_of.get(prov) not in (
                None, "WATER", "SHUT"
            ):
                army.add((here, prov))
            if fleet_here and entry[0].isupper() and types.get(there) in (
                "WATER", "COAST", "PORT"
            ):
                fleet.add((here, there))
    return army, fleet


def _starred(name: str) -> tuple[set[tuple[str, str]], dict[str, tuple[str, ...]]]:
    """The file's ``*`` adjacencies (from, to) and ``*`` homes per power, read off its lines."""
    links: set[tuple[str, str]] = set()
    partisans: dict[str, tuple[str, ...]] = {}
    for line in (LIBRARY / f"{name}.map").read_text("latin-1").splitlines():
        words = line.split()
        if len(words) > 2 and words[2].upper() == "ABUTS":
            for w in words[3:]:
                if w.startswith("*"):
                    links.add((words[1].upper().split("/")[0], w[1:].upper().split("/")[0]))
        elif words and not line.startswith("#") and any(w.startswith("*") for w in words[1:]):
            sites = tuple(sorted(w[1:].upper() for w in words if w.startswith("*")))
            partisans[words[0].upper()] = sites
    return links, partisans


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_shipped_variant_matches_its_map_file(name: str) -> None:
    m = _read(IMPORTED[name])
    board = load_board(name)
    army, fleet = _dpjudge_moves(m)
    shipped_army = {(s, t) for s, ts in board.army_adjacency.items() for t in ts}
    shipped_fleet = {(s, t) for s, ts in board.fleet_adjacency.items() for t in ts}
    assert shipped_army == army
    assert shipped_fleet == fleet
    # both ways: a move the board allows back is one the file lists back, and the other way
    for s, t in army:
        assert ((t, s) in shipped_army) == ((t, s) in army), (s, t)
    for s, t in fleet:
        assert ((t, s) in shipped_fleet) == ((t, s) in fleet), (s, t)
    coasts = {k.upper() for k in m.types if "/" in k}
    assert {c for p in board.provinces.values() for c in p.coasts} == coasts
    for code in coasts:
        assert code in board.fleet_adjacency or not m.abuts.get(code)
    for power, decl in m.powers.items():
        assert board.home_centers(power) == tuple(sorted(decl.homes)), power
        assert sorted(board.starting_units[power]) == sorted(m.units.get(power, ())), power
    assert sorted(board.supply_centers) == m.supply_centers()
    links, partisans = _starred(IMPORTED[name])
    assert board.weak_links == links  # 1900's Cape of Good Hope links, nobody else's
    assert board.partisans == partisans  # 1900's Siberia
    shut = {k.upper() for k, t in m.types.items() if t == "SHUT"}
    assert {c for c, p in board.provinces.items() if p.kind == "impassable"} == shut
    v = variant(name)
    first = v.initial_position().centers
    for power, decl in m.powers.items():
        owned = sorted(c for c, p in first.items() if p == power)
        assert owned == sorted(m.owns.get(power, decl.homes)), power
    assert sorted(v.neutral) == sorted(m.dummies)
    assert v.victory == (m.victory or len(m.supply_centers()) // 2 + 1)
    folder = Path(__file__).resolve().parents[2] / "judge" / "variants" / name
    assert (folder / "LICENSE").read_text("utf-8") == (LIBRARY / "LICENSE").read_text("utf-8")


def test_chaos_has_34_powers_each_on_one_home_and_builds_anywhere() -> None:
    v = variant("chaos")
    assert len(v.powers) == 34 and str(v.first_phase) == "W1900A"
    assert all(len(h) == 1 for h in v.homes.values())
    assert v.builds.value == "any"
    assert not v.initial_position().units


@pytest.mark.parametrize(
    ("name", "powers"),
    [("france-austria", ["AUSTRIA", "FRANCE"]), ("england-turkey", ["ENGLAND", "TURKEY"]),
     ("germany-italy", ["GERMANY", "ITALY"])],
)
def test_two_player_cut_downs(name: str, powers: list[str]) -> None:
    v = variant(name)
    start = v.initial_position()
    assert list(v.powers) == powers and v.victory == 18
    assert {u.power for u in start.units.values()} == set(powers)
    assert sorted(start.units) == sorted(
        u.split()[1].split("/")[0] for p in powers for u in v.board.starting_units[p]
    )
    assert set(start.centers.values()) == set(powers)
    assert len(start.centers) == sum(len(v.board.home_centers(p)) for p in powers)


def test_powers_colours_come_from_the_drawing() -> None:
    colours = power_colours((LIBRARY / "ancmed.ps").read_text("latin-1"))
    assert colours["ROME"] == "#ff0000" and colours["CARTHAGE"] == "#0000ff"
    shipped = json.loads(
        (Path(__file__).resolve().parents[2] / "judge/variants/ancmed/map.json").read_text()
    )
    assert shipped["powers"]["ROME"]["colour"] == "#ff0000"
    assert shipped["powers"]["ROME"]["names"]["en"] == "Rome"
    assert shipped["powers"]["ROME"]["adjectives"]["en"] == "Roman"


def _files(**texts: str) -> object:
    return lambda name: texts[name]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("Paris = par\nLAND PAR ABUTS\nFRANCE PAR\nA PAR\nFROBNICATE EVERYTHING\n",
         "x.map:5: FROBNICATE: unknown directive"),
        ("Paris = par\nLAND PAR ABUTS\nFRANCE PAR\nNEWHOMES FRANCE PAR\n",
         "x.map:4: NEWHOMES: a DPjudge directive this reader does not implement"),
        ("FLOW NEWYEAR:5\n", "x.map:1: FLOW: NEWYEAR:5"),
        ("USE other.map\n", "other.map: cannot read it"),
        ("Paris = par\nCOAST PAR ABUTS ~MAO\n", "x.map:2: COAST: ~MAO"),
        ("Paris = par\nAMEND PAR ABUTS BUR\n", "x.map:2: AMEND: no location PAR to amend"),
        ("A PAR\n", "x.map:1: A: comes before any power line"),
    ],
)
def test_reader_stops_naming_file_line_and_directive(text: str, where: str) -> None:
    files = {"x.map": text}
    with pytest.raises(MapError) as caught:
        read_map("x.map", lambda name: files[name])
    assert str(caught.value).startswith(where)


def test_an_include_error_names_the_included_file_and_line() -> None:
    files = {"x.map": "# top\nUSE y.map\n", "y.map": "\n\nRESERVES FRANCE 2\n"}
    with pytest.raises(MapError, match=r"^y\.map:3: RESERVES"):
        read_map("x.map", lambda name: files[name])


def test_reader_follows_renames_drops_and_amends() -> None:
    milan = _read("milan")
    assert "SAV" in {k.upper() for k in milan.types} and "pie" not in milan.types
    assert "TUS" not in {k.upper() for k in milan.types}
    assert sorted(milan.powers["ITALY"].homes) == ["MIL", "NAP", "ROM"]
    assert "TYR" not in [x.upper() for x in milan.abuts["SAV"]]
    fiveman = _read("fiveman")
    assert sorted(fiveman.powers) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY"]
    assert "POL" in fiveman.unowned and "WAR" not in fiveman.names


def test_import_command_writes_a_folder_and_stops_on_what_it_cannot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["variants", "import", str(LIBRARY / "canton.map"), "--out", str(tmp_path)])
    assert code == 0
    folder = tmp_path / "canton"
    assert sorted(p.name for p in folder.iterdir()) == ["LICENSE", "map.json", "variant.json"]
    shipped = Path(__file__).resolve().parents[2] / "judge" / "variants" / "canton"
    assert json.loads((folder / "map.json").read_text()) == json.loads(
        (shipped / "map.json").read_text()
    )
    capsys.readouterr()
    assert main(["variants", "import", str(LIBRARY / "hundred.map"), "--out", str(tmp_path)]) == 2
    assert "hundred.map:29: FLOW: NEWYEAR:5" in capsys.readouterr().err


def test_show_prints_the_first_position_as_a_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "show", "ancmed"]) == 0
    request = json.loads(capsys.readouterr().out)
    assert request["variant"] == "ancmed" and request["phase"] == "S0001M"
    assert request["units"]["ROME"] == ["A RAV", "A ROM", "F NEA"]
    assert request["centers"]["EGYPT"] == ["ALE", "MEM", "THB"]


def test_sengoku_dummies_are_neutral_and_only_hold() -> None:
    v = variant("sengoku")
    start = v.initial_position()
    units = {p: [f"{u.type.value} {u.location}" for u in start.units.values() if u.power == p]
             for p in v.powers}
    answer = adjudicate_json({"variant": "sengoku", "phase": "S1570M", "units": units,
                              "orders": {"_NEUTRAL": ["A HIZ - CHZ"]}})
    refused, *held = answer["results"]["_NEUTRAL"]
    assert refused["refusal"] == "neutral_power"
    assert {r["order"] for r in held} == {f"{u} H" for u in units["_NEUTRAL"]}
    assert sorted(answer["units"]["_NEUTRAL"]) == sorted(units["_NEUTRAL"])


def test_build_rule_is_a_house_option_on_the_standard_map() -> None:
    request = {"phase": "W1901A", "units": {"FRANCE": ["A PAR"]},
               "centers": {"FRANCE": ["PAR", "SPA", "BRE"]}, "orders": {"FRANCE": ["A SPA B"]}}
    plain = adjudicate_json(request)
    assert plain["results"]["FRANCE"][0]["refusal"] == "not_a_home_center"
    anywhere = adjudicate_json({**request, "options": {"builds": "any"}})
    assert anywhere["results"]["FRANCE"][0]["result"] == "succeeds"
    assert sorted(anywhere["units"]["FRANCE"]) == ["A PAR", "A SPA"]
    remote = adjudicate_json({**request, "centers": {"FRANCE": ["SPA", "POR"]},
                              "options": {"builds": "remote"}})
    assert remote["results"]["FRANCE"][0]["refusal"] == "not_a_home_center"
    with pytest.raises(RequestError, match="options.builds"):
        adjudicate_json({**request, "options": {"builds": "everywhere"}})


def test_a_fleet_in_a_port_convoys_and_an_army_lands_on_a_port() -> None:
    # ancmed's Baleares is DPjudge's PORT: a fleet there convoys as one at sea (Rules: "PORT")
    assert load_board("ancmed").provinces["BAL"].port
    answer = adjudicate_json({
        "variant": "ancmed", "phase": "S0001M",
        "units": {"CARTHAGE": ["A SAG", "F BAL", "F LIG"], "ROME": ["A NEA", "F TYN"]},
        "orders": {"CARTHAGE": ["A SAG - ROM", "F BAL C A SAG - ROM", "F LIG C A SAG - ROM"],
                   "ROME": ["A NEA H", "F TYN H"]},
    })
    assert [r["result"] for r in answer["results"]["CARTHAGE"]] == ["succeeds"] * 3
    assert "A ROM" in answer["units"]["CARTHAGE"]
    landing = adjudicate_json({
        "variant": "ancmed", "phase": "S0001M",
        "units": {"ROME": ["A ROM", "F LIG"]},
        "orders": {"ROME": ["A ROM - BAL", "F LIG C A ROM - BAL"]},
    })
    assert sorted(landing["units"]["ROME"]) == ["A BAL", "F LIG"]
    coastal = adjudicate_json({
        "variant": "ancmed", "phase": "S0001M",
        "units": {"CARTHAGE": ["A MAS", "F TAR", "F ETR"]},
        "orders": {"CARTHAGE": ["F TAR C A MAS - SAG"]},
    })
    assert coastal["results"]["CARTHAGE"][0]["refusal"] == "convoy_not_at_sea"


def test_a_home_taken_away_stays_an_unowned_centre_and_upper_case_drops_split_coasts() -> None:
    files = {
        "x.map": "Paris = par\nBrest = bre\nBulgaria = bul\nBulgaria (east coast) = bul/ec\n"
                 "LAND PAR ABUTS BRE\nCOAST BRE ABUTS PAR\nCOAST bul ABUTS BRE\n"
                 "COAST BUL/EC ABUTS BRE\nFRANCE (FRENCH:F) PAR BRE\nA PAR\nUSE y.map\n",
        "y.map": "FRANCE -BRE\nCOAST BUL ABUTS BRE\n",
    }
    m = read_map("x.map", lambda name: files[name])
    assert m.powers["FRANCE"].homes == ["PAR"] and m.unowned == ["BRE"]
    assert m.supply_centers() == ["BRE", "PAR"]
    assert sorted(m.types) == ["BRE", "BUL", "PAR"]
    assert m.powers["FRANCE"].adjective == "FRENCH" and m.powers["FRANCE"].letter == "F"


@pytest.mark.parametrize(
    ("name", "where"),
    [("1898", "1898.map:4: RULE: MOBILIZE"), ("sailho", "sailho.map:18: RULE: FTF_PRESS"),
     ("1897", "1897.map:5: NEWHOMES"), ("loeb9", "loeb9.map:17: IN: unknown directive")],
)
def test_maps_not_shipped_say_which_line_stops_them(name: str, where: str) -> None:
    from judge.adjudicator.map_import import convert

    with pytest.raises(MapError) as caught:
        convert(_read(name), name)
    assert str(caught.value).startswith(where)


@pytest.mark.parametrize("name", sorted(IMPORTED) + ["france-austria", "standard"])
def test_show_answers_a_request_that_judge_adjudicate_takes(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["variants", "show", name]) == 0
    request = json.loads(capsys.readouterr().out)
    answer = adjudicate_json(request)
    assert answer["phase"] == str(variant(name).first_phase)
    assert answer["units"] == request["units"] or answer["phase"].endswith("A")


def test_shiftaround_starts_on_other_homes_and_cannot_build_there() -> None:
    v = variant("shiftaround")
    start = v.initial_position()
    assert sorted(c for c, p in start.centers.items() if p == "ENGLAND") == ["NAP", "ROM", "VEN"]
    assert v.homes["ENGLAND"] == ("EDI", "LON", "LVP")
    answer = adjudicate_json({"variant": "shiftaround", "phase": "W1901A",
                              "units": {"ENGLAND": ["A ROM"]},
                              "centers": {"ENGLAND": ["NAP", "ROM", "VEN"]},
                              "orders": {"ENGLAND": ["F NAP B"]}})
    assert answer["results"]["ENGLAND"][0]["refusal"] == "not_a_home_center"


def test_import_with_a_drawing_calls_the_converter_or_says_it_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    code = main(["variants", "import", str(LIBRARY / "canton.map"),
                 "--drawing", str(LIBRARY / "canton.ps"), "--out", str(tmp_path)])
    folder = tmp_path / "canton"
    assert (folder / "map.json").is_file()  # the folder is written before the drawing
    if importlib.util.find_spec("judge.maps.ps_drawing") is None:
        assert code == 2
        assert "judge.maps.ps_drawing" in capsys.readouterr().err
        assert not (folder / "drawing.json").exists()
    else:
        assert code == 0
        assert isinstance(json.loads((folder / "drawing.json").read_text("utf-8")), dict)


def test_dummy_and_unplayed_forms() -> None:
    base = ("Paris = par\nBrest = bre\nRome = rom\nLAND PAR ABUTS BRE ROM\nLAND BRE ABUTS PAR\n"
            "LAND ROM ABUTS PAR\nFRANCE PAR\nA PAR\nITALY ROM\nA ROM\nBRITTANY BRE\nA BRE\n")
    files = {"x.map": base + "DUMMY ALL EXCEPT FRANCE\n"}
    assert sorted(read_map("x.map", lambda n: files[n]).dummies) == ["BRITTANY", "ITALY"]
    files = {"x.map": base + "ITALY\nDUMMY\n"}
    assert read_map("x.map", lambda n: files[n]).dummies == ["ITALY"]
    files = {"x.map": base + "UNPLAYED ALL EXCEPT FRANCE ITALY\n"}
    m = read_map("x.map", lambda n: files[n])
    assert sorted(m.powers) == ["FRANCE", "ITALY"] and m.unowned == ["BRE"]
    assert "BRITTANY" not in m.units
    files = {"x.map": base + "UNPLAYED NAVARRE\n"}
    with pytest.raises(MapError, match=r"^x\.map:13: UNPLAYED: no power NAVARRE"):
        read_map("x.map", lambda n: files[n])


def test_cape_links_and_partisan_sites_follow_renames_and_drops() -> None:
    text = (
        "Paris = par\nBrest = bre\nAtlantic = mao\nSiberia = sib\nMoscow = mos\n"
        "COAST PAR ABUTS BRE *MAO\nCOAST BRE ABUTS PAR MAO\nWATER MAO ABUTS *PAR BRE\n"
        "LAND SIB ABUTS MOS\nLAND MOS ABUTS SIB\n"
        "FRANCE PAR BRE MOS *SIB\nA PAR\n"
        "PAR -> Lutetia = lut\n"
    )
    m = read_map("x.map", lambda f: text)
    assert m.weak == [("LUT", "MAO"), ("MAO", "LUT")]
    assert m.powers["FRANCE"].partisans == ["SIB"]
    m = read_map("x.map", lambda f: text + "DROP SIB MAO\n")
    assert m.weak == [] and m.powers["FRANCE"].partisans == []


def _first_moves(name: str) -> dict[str, list[str]]:
    """One move per unit of the variant's first phase, in the canonical form a program writes
    (the map's own abbreviations, a coast where the map splits one): a move to a named coast
    when a unit has one, else its first listed move."""
    position = variant(name).initial_position()
    orders: dict[str, list[str]] = {}
    for power, by_unit in all_possible_orders(position).items():
        for listed in by_unit.values():
            moves = [o for o in listed if isinstance(o, Move) and not o.via_convoy]
            if moves:
                coast = [o for o in moves if "/" in o.target]
                orders.setdefault(power, []).append(str((coast or moves)[0]))
    return orders


@pytest.mark.parametrize("name", variant_names())
def test_show_piped_into_judge_adjudicate_plays_every_installed_variant(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `judge variants show NAME | judge adjudicate`, each unit given a move in the map's terms
    assert main(["variants", "show", name]) == 0
    request = json.loads(capsys.readouterr().out)
    v = variant(name)
    if v.first_phase.is_movement:
        request["orders"] = _first_moves(name)
        assert request["orders"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    assert main(["adjudicate"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["phase"] == str(v.first_phase)
    given = {o for orders in request["orders"].values() for o in orders}
    results = [r for rs in answer["results"].values() for r in rs]
    assert given <= {r["order"] for r in results if not r.get("generated")}
    assert [r for r in results if r["result"] == "illegal"] == []


def test_judge_adjudicate_and_parse_read_a_map_s_abbreviations_and_coasts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # ancmed's own provinces (Ravenna, Naples, Venetia, the Tyrrhenian), by a request and by
    # the order parser with --variant; Youngstown's west coasts by the parser
    ancmed = {"variant": "ancmed", "phase": "S0001M", "units": {"ROME": ["A RAV", "F NEA"]},
              "orders": {"ROME": ["A RAV - VEN", "F NEA - TYN"]}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(ancmed)))
    assert main(["adjudicate"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [(r["order"], r["result"]) for r in answer["results"]["ROME"]] == [
        ("A RAV - VEN", "succeeds"), ("F NEA - TYN", "succeeds")]
    assert answer["units"]["ROME"] == ["A VEN", "F TYN"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("A Rav - Ven\nF Nea - Tyn\n"))
    assert main(["parse", "--lang", "en", "--variant", "ancmed"]) == 0
    assert capsys.readouterr().out.splitlines() == ["A RAV - VEN", "F NEA - TYN"]
    # a west coast (imported maps split coasts west too): it used to crash the parser
    for lang, text in (("en", "F Red - Jor west coast"), ("fr", "F Red - Jor côte ouest"),
                       ("it", "F Red - Jor costa ovest"), ("en", "F And - Tha/wc")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text + "\n"))
        assert main(["parse", "--lang", lang, "--variant", "youngstown"]) == 0
        assert capsys.readouterr().out.split()[-1].endswith("/WC"), (lang, text)
