"""Colours and sizes of the map, in one place so the archive's CSS can match them."""

from __future__ import annotations

POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#c4302b",
    "ENGLAND": "#2b4a9c",
    "FRANCE": "#3fa7e0",
    "GERMANY": "#5a5a5a",
    "ITALY": "#2e9a3a",
    "RUSSIA": "#8a56b8",
    "TURKEY": "#e0b000",
}
# pale tints for land whose supply centre a power owns (opaque, so borders stay crisp)
POWER_TINTS: dict[str, str] = {
    "AUSTRIA": "#eab4b0",
    "ENGLAND": "#b3bfe0",
    "FRANCE": "#b9e0f5",
    "GERMANY": "#c9c9c9",
    "ITALY": "#b5e0ba",
    "RUSSIA": "#d8c4ea",
    "TURKEY": "#f4e2a0",
}
SEA = "#b7d4ea"
LAND = "#efe7d1"
IMPASSABLE = "#cfc8b8"
OFFBOARD = "#ddd8cb"
BORDER = "#7d7463"
COAST = "#4d6f8c"
LABEL = "#3a3429"
FAILED = "#d11f1f"
RETREAT = "#d4560f"
UNIT_RADIUS = 11.0
