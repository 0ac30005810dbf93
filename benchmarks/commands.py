"""Read command lines (every keyword of every language, with typical arguments) and print
lines per second. Prints numbers, asserts nothing.

    python benchmarks/commands.py [--rounds N]
"""

from __future__ import annotations

import argparse
import time

from judge.parsing.commands import lexicon, parse_mail

ARGUMENTS = ["", "alpha", "alpha pw", "alpha pw FRANCE ITALY", "FRANCE alpha pw", "Falpha pw",
             "FRANCE", "FRANCE 2", "S1901M", "alpha S1901M..F1902M", "2027-03-01 20:00", "48",
             "2D", "FRANCE, ITALY GREY", "GREY", "x y z"]


def lines() -> list[str]:
    out = []
    for info in lexicon().raw["commands"].values():
        for lang in ("en", "it", "fr"):
            for keyword in info[lang]:
                out.extend(f"{keyword} {words}".strip() for words in ARGUMENTS)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    sample = lines()
    # one line per mail, as a command line and after a SIGNON (where other lines are orders)
    mails = [[line] for line in sample] + [["SIGNON FRANCE alpha pw", line] for line in sample]
    parse_mail(mails[0])  # load the word tables outside the timing
    count = sum(len(m) for m in mails) * args.rounds
    start = time.perf_counter()
    for _ in range(args.rounds):
        for mail in mails:
            parse_mail(mail)
    elapsed = time.perf_counter() - start
    print(f"{count} command lines in {elapsed:.2f} s: {count / elapsed:,.0f} lines/s")


if __name__ == "__main__":
    main()
