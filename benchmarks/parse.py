"""Parse 10,000 varied order lines per language and print lines per second.

Lines are made from the map with a seeded generator: moves, supports, holds, convoys, written
with codes or full names, in mixed case, with assorted move signs. The tokenizer's cache is
cleared first, so every line is read from scratch. Prints numbers, asserts nothing.

    python benchmarks/parse.py [--lines N]
"""

from __future__ import annotations

import argparse
import random
import time

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.position import Position
from judge.parsing import parse_orders
from judge.parsing.lexicon import lexicon
from judge.parsing.text import tokenize

STANDARD = installed_variant("standard")

SIGNS = {"en": ["-", "->", " to ", "–", "=>"], "fr": ["-", "=", ":", "→"], "it": ["-", "–", "->"]}
HOLD = {"en": "H", "fr": "T", "it": "XXX"}
SUPPORT = {"en": "S", "fr": "S", "it": "APP"}
CONVOY = {"en": "C", "fr": "C", "it": "TR"}


def _word(code: str, lang: str, rng: random.Random) -> str:
    lex = lexicon(lang, "standard")
    text = lex.name(code) if rng.random() < 0.4 else lex.short(code)
    return rng.choice([text, text.upper(), text.lower()])


def make_lines(lang: str, count: int, rng: random.Random) -> list[str]:
    board = STANDARD.board
    armies = sorted(board.army_adjacency)
    fleets = sorted(board.fleet_adjacency)
    seas = [c for c, p in board.provinces.items() if p.is_sea]
    lines: list[str] = []
    while len(lines) < count:
        kind = rng.random()
        if kind < 0.45:
            src = rng.choice(armies)
            dst = rng.choice(sorted(board.army_adjacency[src]))
            sign = rng.choice(SIGNS[lang])
            lines.append(f"A {_word(src, lang, rng)} {sign} {_word(dst, lang, rng)}")
        elif kind < 0.6:
            src = rng.choice(fleets)
            dst = rng.choice(sorted(board.fleet_adjacency[src]))
            lines.append(f"F {src} - {dst}")
        elif kind < 0.8:
            sup = rng.choice(armies)
            other = rng.choice(sorted(board.army_adjacency[sup]))
            dst = rng.choice(
                sorted(board.army_adjacency[other] & board.army_adjacency[sup]) or [other]
            )
            if dst == other:
                lines.append(
                    f"A {_word(sup, lang, rng)} {SUPPORT[lang]} A {_word(other, lang, rng)} {HOLD[lang]}"
                )
            else:
                lines.append(
                    f"A {_word(sup, lang, rng)} {SUPPORT[lang]} A {_word(other, lang, rng)} - {_word(dst, lang, rng)}"
                )
        elif kind < 0.9:
            sea = rng.choice(seas)
            coasts = sorted({board.province_of(t) for t in board.fleet_adjacency[sea]} - set(seas))
            if len(coasts) >= 2:
                a, b = rng.sample(coasts, 2)
                lines.append(
                    f"F {_word(sea, lang, rng)} {CONVOY[lang]} A {_word(a, lang, rng)} - {_word(b, lang, rng)}"
                )
        else:
            src = rng.choice(armies)
            lines.append(f"A {_word(src, lang, rng)} {HOLD[lang]}")
    return lines


def measure(lines: list[str], lang: str, batch: int, position: Position | None) -> float:
    """CPU seconds, best of three runs (the machine is shared), tokenizer cache cleared."""
    best = float("inf")
    for _ in range(3):
        tokenize.cache_clear()
        start = time.process_time()
        for i in range(0, len(lines), batch):
            parse_orders(lines[i : i + batch], lang, position=position)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(1901)
    for lang in ("en", "fr", "it"):
        lexicon(lang, "standard")  # built once per process; not part of the per-line cost
        lines = make_lines(lang, args.lines, rng)
        for batch, label in ((len(lines), "one batch"), (20, "mails of 20 lines")):
            seconds = measure(lines, lang, batch, None)
            print(
                f"{lang}: {len(lines)} lines, {label}, no position: "
                f"{seconds:.3f} s CPU, {len(lines) / seconds:,.0f} lines/s"
            )
        seconds = measure(lines, lang, 20, STANDARD.initial_position())
        print(
            f"{lang}: {len(lines)} lines, mails of 20 lines, with position: "
            f"{seconds:.3f} s CPU, {len(lines) / seconds:,.0f} lines/s"
        )


if __name__ == "__main__":
    main()
