"""Content-addressed blobs (a phase's map, drawn once) and the durable render jobs.

A results bulletin is committed with the turn as a ``render_job`` row plus its outbox rows,
held (status ``rendering``); the map and the bulletin text are drawn afterwards, outside the
game's transaction, and a second short transaction stores the map once as a ``blob`` (keyed
by its sha256, shared by every message that carries it), fills the held rows and deletes the
job. A crash in between leaves the job, which the next sweep renders (issue 16).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from judge.storage.base import Base


class Blob(Base):
    __tablename__ = "blob"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    mime: Mapped[str] = mapped_column(String(100))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int]
    created: Mapped[datetime]


class RenderJob(Base):
    __tablename__ = "render_job"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    # the turn whose ``bulletins`` the rendered text fills (gone if the turn was rolled back)
    turn_id: Mapped[int | None] = mapped_column(ForeignKey("turn.id", ondelete="SET NULL"))
    event: Mapped[str] = mapped_column(String(32))
    language: Mapped[str] = mapped_column(String(8))
    view: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # what the map is drawn from: {"game", "phase", "before", "outcomes", "after", "language"}
    map_spec: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # outbox rows that get the rendered subject, body and map
    fill_ids: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # every outbox row held until the job is done (the filled ones and those queued after
    # them in the same transaction, so the game's mail keeps its order)
    hold_ids: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created: Mapped[datetime]
