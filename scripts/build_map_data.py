"""Build judge/variants/standard/map.json from the verified reference table.

Run once whenever ../shared/reference/provinces.csv changes:
    python scripts/build_map_data.py ../shared/reference/provinces.csv
The JSON is committed as package data so the judge never needs the shared folder at run time.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "judge" / "variants" / "standard" / "map.json"

STARTING_UNITS = {
    "AUSTRIA": ["A VIE", "A BUD", "F TRI"],
    "ENGLAND": ["F LON", "F EDI", "A LVP"],
    "FRANCE": ["F BRE", "A PAR", "A MAR"],
    "GERMANY": ["F KIE", "A BER", "A MUN"],
    "ITALY": ["F NAP", "A ROM", "A VEN"],
    "RUSSIA": ["A WAR", "A MOS", "F SEV", "F STP/SC"],
    "TURKEY": ["F ANK", "A CON", "A SMY"],
}


def split(cell: str, sep: str) -> list[str]:
    return [part.strip() for part in cell.split(sep) if part.strip()]


def main(csv_path: str) -> None:
    provinces: list[dict] = []
    with open(csv_path, encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            provinces.append(
                {
                    "code": row["std_abbr"].upper(),
                    "parent": row["parent"].upper() or None,
                    "type": row["type"],
                    "supply_center": row["supply_center"] == "yes" and not row["parent"],
                    "home": row["home_power"].upper() or None if not row["parent"] else None,
                    "army_neighbours": [n.upper() for n in split(row["army_neighbours"], " ")],
                    "fleet_neighbours": [n.upper() for n in split(row["fleet_neighbours"], " ")],
                    "names": {
                        "en": {
                            "name": row["english_name"],
                            "abbr": split(row["rulebook2008_abbr"], ";"),
                            "other_names": [],
                        },
                        "fr": {
                            "name": row["french_name"],
                            "abbr": split(row["french_abbr"], ";"),
                            "other_names": split(row["french_other_names"], ";"),
                        },
                        "it": {
                            "name": row["italian_name"],
                            "abbr": split(row["italian_abbr"], ";")
                            + split(row["italian_alt_abbrs"], " "),
                            "abbr_source": row["italian_source"],
                            "other_names": split(row["italian_other_names"], ";"),
                        },
                    },
                    "abbr_differences": row["abbr_differences"],
                }
            )
    # the powers' facts (names, colours, territory), the languages and the parser's extra
    # words are kept as the file has them: the reference table holds provinces only
    kept = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    data = {
        "variant": "standard",
        "languages": kept.get("languages", ["en", "fr", "it"]),
        "powers": kept.get("powers", {}),
        "words": kept.get("words", {}),
        "coast_aliases": kept.get("coast_aliases", {}),
        "provinces": provinces,
        "starting_units": STARTING_UNITS,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(provinces)} rows)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference/provinces.csv")
