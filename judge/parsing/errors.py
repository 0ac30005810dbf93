"""Why an order line was refused, and what the reader filled in or noticed on the way.

Every refusal is a member of :class:`ParseError` so that a reply can explain it in the player's
language (the templates live in ``data/messages.json``). :class:`Note` members are remarks that
do not refuse the order (a coast filled in, an earlier order replaced...).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ParseError(StrEnum):
    # reading the words
    Empty = "Empty"
    UnknownProvince = "UnknownProvince"
    AmbiguousProvince = "AmbiguousProvince"
    UnrecognisedOrder = "UnrecognisedOrder"
    IncompleteOrder = "IncompleteOrder"
    TrailingText = "TrailingText"
    NoSuchCoast = "NoSuchCoast"
    MissingUnitType = "MissingUnitType"
    # the position
    NoUnitThere = "NoUnitThere"
    NotYourUnit = "NotYourUnit"
    WrongUnitType = "WrongUnitType"
    NotDislodged = "NotDislodged"
    WrongPhase = "WrongPhase"
    # the map
    ArmyAtSea = "ArmyAtSea"
    FleetInland = "FleetInland"
    NotAdjacent = "NotAdjacent"
    ArmyToSea = "ArmyToSea"
    FleetToInland = "FleetToInland"
    MissingCoast = "MissingCoast"
    CoastNotReachable = "CoastNotReachable"
    NotReachableFromCoast = "NotReachableFromCoast"
    MoveToOwnProvince = "MoveToOwnProvince"
    Impassable = "Impassable"
    # supports
    SupportNotAdjacent = "SupportNotAdjacent"
    SupportWithoutSeaBorder = "SupportWithoutSeaBorder"
    SupportFromWrongCoast = "SupportFromWrongCoast"
    ArmySupportsIntoSea = "ArmySupportsIntoSea"
    FleetSupportsInland = "FleetSupportsInland"
    SupportsItself = "SupportsItself"
    SupportedMoveImpossible = "SupportedMoveImpossible"
    NoUnitToSupport = "NoUnitToSupport"
    SupportAmbiguous = "SupportAmbiguous"
    SupportHoldOfMovingUnit = "SupportHoldOfMovingUnit"
    # convoys
    ConvoyByArmy = "ConvoyByArmy"
    ConvoyByCoastalFleet = "ConvoyByCoastalFleet"
    ConvoyOfFleet = "ConvoyOfFleet"
    ConvoyNotCoastal = "ConvoyNotCoastal"
    SupportCannotBeConvoyed = "SupportCannotBeConvoyed"
    NoUnitToConvoy = "NoUnitToConvoy"
    # retreats and adjustments
    RetreatNotAllowed = "RetreatNotAllowed"
    BuildNotHome = "BuildNotHome"
    BuildNotOwned = "BuildNotOwned"
    BuildOccupied = "BuildOccupied"
    NoBuildsAvailable = "NoBuildsAvailable"
    NoRemovalsNeeded = "NoRemovalsNeeded"
    TooManyBuilds = "TooManyBuilds"
    TooManyRemovals = "TooManyRemovals"
    # refused by the adjudicator's legality check
    NoFleetsToConvoy = "NoFleetsToConvoy"
    ConvoyNotOnRoute = "ConvoyNotOnRoute"
    NotLegal = "NotLegal"


class Note(StrEnum):
    ReplacesEarlier = "ReplacesEarlier"
    ReplacedByLater = "ReplacedByLater"
    CoastFilledIn = "CoastFilledIn"
    UnitTypeFilledIn = "UnitTypeFilledIn"
    UnitCoastFromPosition = "UnitCoastFromPosition"
    ReadAsRetreat = "ReadAsRetreat"
    ReadAsSupportHold = "ReadAsSupportHold"
    ReadAsBuild = "ReadAsBuild"
    CommentIgnored = "CommentIgnored"
    SupportCoastIgnored = "SupportCoastIgnored"
    ArmyCoastIgnored = "ArmyCoastIgnored"
    NeedsConvoy = "NeedsConvoy"
    SupportDoesNotMatch = "SupportDoesNotMatch"
    ReadInGameNotation = "ReadInGameNotation"
    CoastMissingHolds = "CoastMissingHolds"


class ParseFailure(Exception):
    """Raised inside the reader; carries the reason and the values its message needs."""

    def __init__(self, reason: ParseError, **params: Any) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.params = params
