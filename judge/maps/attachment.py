"""The map of a processed phase as an outbound-mail attachment (pure: no I/O)."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from judge.maps.composite import composite_png
from judge.maps.scene import snapshot_from_turn


def map_png(
    game: str,
    phase: str,
    position_before: Mapping[str, Any],
    outcomes: Mapping[str, Any] | None = None,
    position_after: Mapping[str, Any] | None = None,
    language: str = "en",
) -> bytes:
    """The PNG map of one processed phase, from its turn snapshot's JSON columns: the
    composite of layers drawn once per process (``composite``), as the SVG looks."""
    snap = snapshot_from_turn(phase, position_before, outcomes, position_after)
    snap["title"] = game
    snap["language"] = language  # the title and the province codes in the game's language
    return composite_png(snap)


def map_attachment(
    game: str,
    phase: str,
    position_before: Mapping[str, Any],
    outcomes: Mapping[str, Any] | None = None,
    position_after: Mapping[str, Any] | None = None,
    language: str = "en",
) -> dict[str, str]:
    """``{"mime", "filename", "data_b64"}``: the shape ``outbound_mail.attachments`` holds.

    Arguments are a turn snapshot's JSON columns (``Turn.position_before``, ``Turn.outcomes``,
    ``Turn.position_after``), so the turn processor can call this before or after storing it.
    """
    png = map_png(game, phase, position_before, outcomes, position_after, language)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in game) or "game"
    return {
        "mime": "image/png",
        "filename": f"{safe}-{phase}.png",
        "data_b64": base64.b64encode(png).decode("ascii"),
    }
