"""All tables, importable from one place (``from judge.storage.models import Game``)."""

from judge.storage.base import Base
from judge.storage.models_api import ApiToken, Webhook, WebhookDelivery
from judge.storage.models_blob import Blob, RenderJob
from judge.storage.models_bots import (
    AGREEMENT_STATUSES,
    AgreementRecord,
    BotSeat,
    CouncilSnapshot,
    TrustRecord,
)
from judge.storage.models_game import (
    DEADLINE_KINDS,
    GAME_STATUSES,
    ORDER_SOURCES,
    SEAT_STATUSES,
    VOTE_KINDS,
    Account,
    AuditLog,
    Deadline,
    Game,
    OrderSet,
    PlayerRecord,
    Press,
    Seat,
    Turn,
    Vote,
    default_game_options,
)
from judge.storage.models_guard import (
    CONFIRMATION_ACTIONS,
    CONFIRMATION_STATUSES,
    Confirmation,
    SignonLock,
)
from judge.storage.models_mail import (
    INBOUND_STATUSES,
    OUTBOUND_STATUSES,
    ImapState,
    InboundMail,
    MailTrouble,
    OutboundMail,
)

__all__ = [
    "PlayerRecord",
    "ApiToken",
    "Webhook",
    "WebhookDelivery",
    "CONFIRMATION_ACTIONS",
    "CONFIRMATION_STATUSES",
    "Confirmation",
    "SignonLock",
    "AGREEMENT_STATUSES",
    "AgreementRecord",
    "CouncilSnapshot",
    "BotSeat",
    "TrustRecord",
    "DEADLINE_KINDS",
    "GAME_STATUSES",
    "INBOUND_STATUSES",
    "ORDER_SOURCES",
    "OUTBOUND_STATUSES",
    "SEAT_STATUSES",
    "VOTE_KINDS",
    "Account",
    "AuditLog",
    "Base",
    "Blob",
    "RenderJob",
    "Deadline",
    "Game",
    "ImapState",
    "InboundMail",
    "MailTrouble",
    "OrderSet",
    "OutboundMail",
    "Press",
    "Seat",
    "Turn",
    "Vote",
    "default_game_options",
]
