"""What happened to each order, and why: enough for a reply to explain every failure."""

from __future__ import annotations

from dataclasses import dataclass

from judge.adjudicator.adjustments import BuildRule, RemovalDistance
from judge.adjudicator.order_result import OrderResult as OrderResult
from judge.adjudicator.order_result import Outcome as Outcome
from judge.adjudicator.phase_result import Adjudication as Adjudication


@dataclass(frozen=True, slots=True)
class Options:
    """Rule variants the seeds leave open (see docs/adjudication.md)."""

    removal_distance: RemovalDistance = RemovalDistance.HOME
    # seed 001's two-player game: the power the neutral one joined when the lot was drawn
    joins: str | None = None
    # where powers build; None: the variant's rule (``Variant.builds``, the rulebook's by default)
    builds: BuildRule | None = None
