"""Boards: a duplicate round's deals, fixed in advance, so that every table plays the same cards.

One row a board: its number (board *k* is deal *k* of every table's sheet in the all-tables-at-once movement),
the dealer's compass position, the deal and the turned card by its index (``games.cards``: clubs 2 to ace are
0..12, then diamonds, hearts, spades). The deal is 52 letters, one a card in index order, each the compass
position (N, E, S, W) of the hand that holds it, so every card is recoverable and the database itself keeps a
row a deal: 52 letters, thirteen of each compass, and the turned card's letter is the dealer's.

Boards are hand records: they stay with those who run the competition (``tournaments.duplicate``).
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Value
from django.db.models.functions import Length, Replace, Substr
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from games.cards import CARDS
from games.duplicate import Board as EngineBoard
from games.duplicate.boards import COMPASS
from tournaments import limits
from tournaments.models.competitions import Round

DECK = len(CARDS)  # 52
HAND = DECK // 4  # 13


def deal_text(hands: tuple[int, int, int, int]) -> str:
    """The four hands (bit sets by compass position) as 52 letters: card *i*'s holder, N, E, S or W."""
    return "".join(next(COMPASS[p] for p, hand in enumerate(hands) if hand >> card.index & 1) for card in CARDS)


def hands_of(text: str) -> tuple[int, int, int, int]:
    """The four hands of a deal's 52 letters (``deal_text`` read back)."""
    hands = [0, 0, 0, 0]
    for card, letter in zip(CARDS, text, strict=True):
        hands[COMPASS.index(letter)] |= card.bit
    return (hands[0], hands[1], hands[2], hands[3])


def _thirteen_each() -> models.Q:
    """52 letters, thirteen of each compass position: nothing else fits."""
    each = (Exact(Length(Replace(F("deal"), Value(letter), Value(""))), DECK - HAND) for letter in COMPASS)
    return models.Q(Exact(Length(F("deal")), DECK), *each)


def _turned_in_dealers_hand() -> models.Q:
    holder = Substr(F("deal"), F("turned") + 1, 1)
    condition = models.Q()
    for position, letter in enumerate(COMPASS):
        condition |= models.Q(models.Q(dealer=position), Exact(holder, letter))
    return condition


class Board(models.Model):
    """One deal of a duplicate round, fixed in advance: four hands by compass position, the dealer, the turned card."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"), validators=limits.BOARD_NUMBER.validators())
    dealer = models.PositiveSmallIntegerField(_("dealer"), validators=limits.COMPASS_POSITION.validators())
    # card i's holder, for the 52 cards in index order: "NWSE…" (``deal_text``)
    deal = models.CharField(_("deal"), max_length=DECK)
    turned = models.PositiveSmallIntegerField(_("turned card"), validators=limits.CARD_INDEX.validators())
    # The seed the board was dealt from (``games.duplicate.deal_board``); empty for boards read from a PBN file.
    seed = models.BigIntegerField(_("seed"), null=True, blank=True, validators=limits.SEED.validators())
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="board_number_once_per_round"),
            limits.BOARD_NUMBER.check("number", "board_number_range"),
            limits.COMPASS_POSITION.check("dealer", "board_dealer_range"),
            limits.CARD_INDEX.check("turned", "board_turned_card_range"),
            models.CheckConstraint(condition=_thirteen_each(), name="board_deal_thirteen_cards_each"),
            models.CheckConstraint(condition=_turned_in_dealers_hand(), name="board_turned_card_is_the_dealers"),
            models.CheckConstraint(
                condition=models.Q(seed__isnull=True) | models.Q(seed__gte=limits.SEED.low, seed__lte=limits.SEED.high),
                name="board_seed_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} – board {self.number}"

    @property
    def hands(self) -> tuple[int, int, int, int]:
        """The hands by compass position, as bit sets of ``games.cards.mask``."""
        return hands_of(self.deal)

    def engine_board(self) -> EngineBoard:
        """The board as the engine knows it (``games.duplicate.Board``), checked again on the way out."""
        return EngineBoard(self.number, self.dealer, self.hands, CARDS[self.turned])

    @classmethod
    def from_engine(cls, round_: Round, board: EngineBoard, *, seed: int | None = None) -> Board:
        """An unsaved row for the engine's ``board`` in ``round_`` (``seed``: the one it was dealt from, if any)."""
        return cls(
            round=round_,
            number=board.number,
            dealer=board.dealer,
            deal=deal_text(board.hands),
            turned=board.turned.index,
            seed=seed,
        )


ANALYSIS_BUDGET_MAX = 10**12  # nodes per contract: far past any budget that finishes in a working day
ANALYSIS_ATTEMPTS_MAX = 100  # the reconciliation gives up after a few (``tournaments.duplicate.analysis``)
ANALYSIS_ERROR_MAX = 1000


class BoardAnalysis(models.Model):
    """The double-dummy solver's table for one board (``games.solver.analysis.analyse``), kept beside it.

    One row a board, made when the round's boards are dealt or read (``tournaments.duplicate.analysis``); a board
    replaced takes its analysis with it (cascade). ``rows`` are the solver's answers as plain JSON, one object a
    contract and side: ``{"contract", "declarers", "trump", "leader", "low", "high"}``, the trump a suit letter
    (C, D, H, S) or null, ``low == high`` when the solver settled it within ``budget`` nodes a contract, otherwise
    the bounds it proved. Like the board itself it is a hand record: shown once the round is finalised.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the solver")
        RUNNING = "running", _("Being analysed")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("Analysis failed")

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    rows = models.JSONField(_("rows"), default=list, blank=True)
    # the solver's node budget per contract this analysis ran with (settings.WIEZEN_SOLVER_BUDGET); None: unbounded
    budget = models.PositiveBigIntegerField(
        _("node budget"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(ANALYSIS_BUDGET_MAX)],
    )
    attempts = models.PositiveSmallIntegerField(
        _("attempts"), default=0, validators=[MinValueValidator(0), MaxValueValidator(ANALYSIS_ATTEMPTS_MAX)]
    )
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=ANALYSIS_ERROR_MAX, blank=True, default="")
    # the second pass (tournaments.duplicate.analysis.deepen) of a done analysis: when it was last queued, and when
    # it ended (or the first pass left nothing for it); reconcile queues again one that was lost on the way
    deep_queued_at = models.DateTimeField(_("second pass queued at"), null=True, blank=True)
    deepened_at = models.DateTimeField(_("second pass ended at"), null=True, blank=True)

    class Meta:
        ordering = ["board"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "running", "done", "failed"]),
                name="board_analysis_status_known",
            ),
            models.CheckConstraint(
                condition=models.Q(budget__isnull=True) | models.Q(budget__gte=1, budget__lte=ANALYSIS_BUDGET_MAX),
                name="board_analysis_budget_range",
            ),
            models.CheckConstraint(
                condition=models.Q(attempts__gte=0, attempts__lte=ANALYSIS_ATTEMPTS_MAX),
                name="board_analysis_attempts_range",
            ),
            # running: started, not finished; done or failed: started and finished, in that order
            models.CheckConstraint(
                condition=~models.Q(status="running") | models.Q(started_at__isnull=False, finished_at__isnull=True),
                name="board_analysis_running_is_started",
            ),
            models.CheckConstraint(
                condition=~models.Q(status__in=["done", "failed"])
                | models.Q(started_at__isnull=False, finished_at__gte=F("started_at")),
                name="board_analysis_finished_after_started",
            ),
            # a failure says why; a success has nothing to say
            models.CheckConstraint(
                condition=(models.Q(status="failed") & ~models.Q(error=""))
                | (~models.Q(status="failed") & models.Q(error="")),
                name="board_analysis_error_only_when_failed",
            ),
            # a second pass follows a first pass that is done; a new first pass starts it over
            models.CheckConstraint(
                condition=models.Q(status="done") | models.Q(deep_queued_at__isnull=True, deepened_at__isnull=True),
                name="board_analysis_second_pass_after_done",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} – analysis ({self.status})"
