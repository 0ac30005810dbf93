"""Computer powers (issue 14, seed 003): PURE, no I/O; chance arrives as a ``random.Random``.

* ``mapview``: the narrow board interface the reasoning reads (one adapter per board source).
* ``valuation``: DumbBot-family province values (power sizes, proximity spread, competition).
* ``baseline``: the plain DumbBot-style player (weighted choice, no search, no personality).
* ``tactics`` / ``search``: cooperation between own units, convoys, and a shallow search that
  plays candidate order sets through the judge's own adjudicator against likely replies.
* ``personality``: named parameter sets; ``engine.bot_orders`` is the entry point.
* ``proposals``, ``ledger``, ``diplomat``: negotiation (the five kinds of seed 003), the promise
  ledger with kept/broken verdicts and trust, and the bots' answers and coalitions.

Written from published descriptions of the heuristic family only (no bot's code).
"""
