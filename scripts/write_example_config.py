"""Write config/judge.example.toml from the settings declared in judge/settings.py."""

from __future__ import annotations

from pathlib import Path

from judge.settings_example import render

TARGET = Path(__file__).resolve().parent.parent / "config" / "judge.example.toml"

if __name__ == "__main__":
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")
