"""Tables of the mail pipeline: stored inbound mail, the outbox, the IMAP watermark."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from judge.storage.base import Base

# "held": kept until its sender confirms the address (then "new" again), or expires
INBOUND_STATUSES = ("new", "processing", "done", "failed", "held")
# "rendering": queued with a render job (judge.storage.models_blob), not sendable until done
OUTBOUND_STATUSES = ("rendering", "pending", "sending", "sent", "dead")


class InboundMail(Base):
    __tablename__ = "inbound_mail"
    __table_args__ = (
        UniqueConstraint("message_id", "body_sha256"),
        # the drain reads "oldest new first"
        Index(None, "status", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998))
    body_sha256: Mapped[str] = mapped_column(String(64))
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int]  # size as received; raw is cut to the cap when larger
    oversized: Mapped[bool] = mapped_column(default=False)
    envelope_from: Mapped[str] = mapped_column(String(320), default="")
    envelope_to: Mapped[list[Any]] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(String(16), default="lmtp")
    received_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), default="new")
    error: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None]


class OutboundMail(Base):
    __tablename__ = "outbound_mail"
    __table_args__ = (
        Index(None, "status", "next_attempt_at"),
        # the per-address daily reply cap counts these
        Index(None, "to_addr", "created"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    to_addr: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(998), default="")
    headers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    body: Mapped[str] = mapped_column(Text, default="")
    # [{"filename": ..., "mime": "type/subtype", "blob": sha256}] (older rows: "data_b64")
    attachments: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # the blob the attachments reference: a blob is pruned once no row references it
    blob_sha256: Mapped[str | None] = mapped_column(
        ForeignKey("blob.sha256", ondelete="RESTRICT"), index=True)
    kind: Mapped[str] = mapped_column(String(16), default="reply")  # reply | bulletin | notice
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))
    list_id: Mapped[str | None] = mapped_column(String(255))
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_mail.id", ondelete="SET NULL"), index=True
    )
    in_reply_to: Mapped[str | None] = mapped_column(String(998))
    references: Mapped[str | None] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    tries: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime]
    sent_at: Mapped[datetime | None]


class ImapState(Base):
    """Where the IMAP poller stopped: a UID is only passed once its mail is stored."""

    __tablename__ = "imap_state"

    id: Mapped[int] = mapped_column(primary_key=True)
    account: Mapped[str] = mapped_column(String(320))  # "user@host/folder"
    uidvalidity: Mapped[int] = mapped_column(default=0)
    last_uid: Mapped[int] = mapped_column(default=0)

    __table_args__ = (UniqueConstraint("account"),)


class MailTrouble(Base):
    """A seat whose mail is dead or bouncing: one row per (game, power, address), written
    when its GM is told, so the GM gets one notice per seat (and again for a new address)."""

    __tablename__ = "mail_trouble"
    __table_args__ = (UniqueConstraint("game_id", "power", "address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(16))
    address: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(16))  # dead | bounce
    outbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("outbound_mail.id", ondelete="SET NULL"))
    detail: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[datetime]
