"""The domain: clubs and players, rule sets, competitions, seatings, score sheets."""

from tournaments.models.addresses import FormerAddress
from tournaments.models.audit import AuditEvent
from tournaments.models.boards import Board, BoardAnalysis
from tournaments.models.checkin import CheckIn, VenueCode
from tournaments.models.clubs import Club, Membership, Player
from tournaments.models.competitions import Competition, Game, Registration, Round
from tournaments.models.display import Announcement, RoundClock
from tournaments.models.idempotency import IdempotentRequest
from tournaments.models.rules import RuleSet
from tournaments.models.seating import RoundEvent, SeatingWish
from tournaments.models.sheets import DealEntry, Penalty, ScoreSheet, SeatResult
from tournaments.models.tables import Seat, Table

__all__ = [
    "Announcement",
    "AuditEvent",
    "Board",
    "BoardAnalysis",
    "CheckIn",
    "Club",
    "Competition",
    "DealEntry",
    "FormerAddress",
    "Game",
    "IdempotentRequest",
    "Membership",
    "Penalty",
    "Player",
    "Registration",
    "Round",
    "RoundClock",
    "RoundEvent",
    "RuleSet",
    "ScoreSheet",
    "Seat",
    "SeatResult",
    "SeatingWish",
    "Table",
    "VenueCode",
]
