"""What the API's requests and answers look like: pydantic models, the source of the
OpenAPI document (``/api/v1/openapi.json`` is generated from them and the routes).

The bounds here are the hostile-sender rules of the mail side said as types: a request
carries at most ``MAX_LINES`` order lines of at most ``MAX_LINE`` characters (a power has at
most 34 units), and the web guard caps the body before it is parsed (``judge.api.mount``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

MAX_LINES = 60
MAX_LINE = 120

OrderText = Annotated[str, Field(max_length=MAX_LINE)]


class OrdersIn(BaseModel):
    """A seat's whole set of orders for the current phase, in any notation the game reads."""

    orders: list[OrderText] = Field(max_length=MAX_LINES,
                                    examples=[["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]])


class LineReading(BaseModel):
    """One order line as the judge read it: the canonical order, or why it was refused."""

    line: str
    order: str | None = Field(None, description="the canonical order when the line stands")
    reason: str | None = Field(None, description="why the line was refused, in the asked "
                               "language (the reason a mail reply gives)")


class OrdersOut(BaseModel):
    game: str
    phase: str
    power: str
    lines: list[LineReading] = Field(description="every line sent, in order")
    stored: list[str] = Field(description="the orders on file after this request")
    version: int | None = Field(description="the order set's version written; null when "
                                "nothing new was stored")
    missing: list[str] = Field(description="units still without an order")


class OrdersOnFile(BaseModel):
    game: str
    phase: str
    power: str
    orders: list[str]
    version: int | None
    missing: list[str]


class ApiRefusal(BaseModel):
    """A refusal: ``reason`` is the use case's code, ``message`` the sentence a mail reply
    gives, in the asked language."""

    reason: str
    message: str


class GameList(BaseModel):
    games: list[dict[str, Any]]
    page: int
    pages: int
    total: int | None = None


JsonObject = dict[str, Any]


class DrawIn(BaseModel):
    """The seat's secret draw vote: true casts it, false withdraws it (mail: DRAW, NO DRAW)."""

    draw: bool


class ApiDone(BaseModel):
    """What was done, as a mail reply says it, in the asked language."""

    game: str
    power: str
    message: str


class ProcessIn(BaseModel):
    """The GM's PROCESS: the current phase, adjudicated now (``force`` while the game waits
    for a replacement player)."""

    phase: str = Field(max_length=8, examples=["F1903M"])
    force: bool = False


class Processed(BaseModel):
    game: str
    phase: str
    action: str
    next_phase: str | None
    message: str


class PressItem(BaseModel):
    phase: str
    sender: str
    body: str


# a command line as a mail carries it; a press block is many of them. A mail's work is
# bounded by its non-blank lines (settings.max_command_lines, the lines past it unread):
# these caps only bound the request's size
MAX_COMMAND_LINES = 500
MAX_COMMAND_LINE = 1000
CommandLine = Annotated[str, Field(max_length=MAX_COMMAND_LINE)]


class CommandsIn(BaseModel):
    """Mail command lines, run as a mail from the token's holder signed on would run them."""

    commands: list[CommandLine] = Field(
        max_length=MAX_COMMAND_LINES,
        description="the lines, in order; a line may hold several (newline-separated)",
        examples=[["EXTEND 24", "SET DEADLINE 2027-01-10 18:00"]])


class Answer(BaseModel):
    """One line (or block) as the mail reply repeats it, and the reply's sentences for it."""

    line: str | None = Field(description="the line as the mail reply echoes it")
    messages: list[str] = Field(description="the mail reply's answer, in the asked language")
    reasons: list[str] = Field(description="each message's reason code (e.g. "
                                           "deadline_extended, not_gm, not_by_token)")


class CommandsOut(BaseModel):
    game: str
    power: str = Field(description="the seat's power, or GM")
    answers: list[Answer]
