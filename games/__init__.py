"""The Wiezen rules engine: rule sets, score-sheet lines, settlement.

Pure Python, no Django, fully typed. Everything game-specific in the project
goes through here.

Score-sheet lines
=================
One JSON object per deal, in the order the deals were played::

    {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 9}
    {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [2], "tricks": 4}
    {"deal": 3, "dealer": 2, "contract": "abondance", "level": 10, "trump": "S", "declarers": [0], "tricks": 10}
    {"deal": 4, "dealer": 3, "contract": "miserie", "declarers": [0, 2], "tricks": [0, 1]}
    {"deal": 5, "dealer": 0, "contract": "pass"}
    {"deal": 6, "dealer": 1, "contract": "troel", "declarers": [3, 0], "tricks": 8}
    {"deal": 7, "dealer": 2, "contract": "penalty", "offender": 1}

- ``deal``: 1, 2, 3... the line's position on the sheet (an all-pass deal has
  a number too; whether it counts toward the 16 or 24 deals is the rule set's
  ``passes_count``).
- ``dealer``: seat 0..3, or 0..4 at a table of five, where the dealer sits
  the deal out and gets 0. The first line's dealer is free; after that the
  rule set's rotation (and same-dealer redeal after an all-pass) decides.
- ``contract``: a contract id (``games.contracts.CONTRACTS``) enabled in the
  rule set, or ``pass`` (all four passed) or ``penalty``.
- ``declarers``: the contract side, asker first, then the partner.
- ``tricks``: the side's total; for miserie-type contracts (miserie,
  kleine_miserie, open_miserie, piccolo) one count per declarer (a plain
  number is accepted for a single declarer). Several miserie declarers on
  one deal only where the rule set's ``multiple_miserie`` allows it (not in
  ``solo_whist``: each bid must exceed the last). Under ``early_end`` (set
  in ``solo_whist``) a miserie stops at its declarer's first trick, so its
  count is 0 or 1 (with several declarers, at least one of them has 0 or 1).
- ``level``: abondance, 9..12; vraag (9..13) and alleen (6..8) where the
  rule set plays those higher bids. ``trump``: ``C``, ``D``, ``H`` or ``S``;
  required where the declarer chooses it, forbidden on no-trump contracts,
  optional (for the record) where it is the turned card or the fourth ace.
- ``offender``: penalty only; the offender pays the rule set's ``penalty``
  to each other player at the table. A penalty is not multiplied and leaves
  any doubling pending from an all-pass round for the next played deal.
- Optional: ``points`` (entered by hand: checked against the settlement),
  ``note`` (free text).

Usage::

    from games import Sheet, find
    sheet = Sheet(find("flemish"), players=4, deals=16)
    sheet.add({"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 9})
    # Settled(deal=1, contract='vraag', points=(-3, 3, -3, 3), multiplier=1, made=(True,))

House rules: a club's rule set is a preset with overrides, plain JSON
(``{"preset": "iwwa", "troel_target": 9}``; ``RuleSet.from_json``), every
problem listed at once. Beyond tariffs, ladder and doubling, the options
clubs play differently (``games.rulesets.HOUSE_OPTIONS``; ``python -m games
presets`` lists them with their defaults):

- ``multiple_miserie`` (true): several miserie players on one deal;
- ``miserie_settlement`` (``"independent"``): each miserie player settles
  alone against the other players, or ``"pooled"``: those who made it
  collect from those who failed; if nobody failed, the other players pay
  them; if all failed, they pay the other players. A pair with a failed
  declarer settles that declarer's amount;
- ``early_end`` (false): play stops when the result is decided, so a
  miserie line gives 0 or 1 tricks;
- ``troel_target`` (8): the tricks troel's pair needs, 8 to 12;
- per contract, in its tariff: ``over_until`` (null: overtricks count up to
  this many tricks), ``fail_factor`` (1: a failure costs this many times
  its amount), ``fail_per_from_first`` (false: ``fail_per`` counts every
  trick off, the first too, so abondance can pay "5 + 1 per trick"), and
  ``all_tricks`` (null: a fixed amount for every trick, instead of the
  formula or ``all_tricks_double``);
- ``tariffs.vraag.levels`` (9..13) and ``tariffs.alleen.levels`` (6..8):
  the higher bids the rule set plays ("vragen en meegaan" for 10, "alleen"
  for 6), each with its own amount; a line names the bid in ``level``
  (none: the ordinary vraag for 8, alleen for 5). In a full deal record's
  auction they are bid ``[seat, "vraag", 10]`` and rank between the
  ordinary game and abondance by the tricks they ask, an alleen for N
  above a vraag for N + 3 (``RuleSet.bid_ranks``);
- per contract, amounts set seat by seat, which need not sum to zero:
  ``declarer_made`` (each declarer gets it), ``others_made`` (each other
  player pays it), ``declarer_failed`` (each declarer pays it) and
  ``others_failed`` (each other player gets it), all four or none; they
  replace the tariff's other amounts, and miserie players settle alone.
  ``RuleSet.zero_sum`` says whether every deal still sums to zero; hand-typed
  ``points`` are then checked against the settlement only.

``games.examples.worked_examples(rules)`` settles a few deals clubs settle
differently (a vraag with two overtricks, an alleen one down, two miserie
players of whom one fails, an all-pass round then a troel), so a house rule
set can be checked before the evening; ``python -m games examples --rules R``
prints them (JSON lines).

Full deal records (cards dealt, auction, every card played) are documented
in ``games.records`` (Wiezen and Solo whist) and ``games.zwicken`` (Zwicken,
with its own score-sheet line format); ``check_record`` validates one and
settles the line it proves. ``open_sheet(rules, players, deals)`` opens the
right session sheet for any game.

Bad input raises ``games.errors.InvalidLine`` (every problem of the line,
each with a stable code, field and message) and changes nothing. Lines give
positions from 0; messages name seats as the table card does, from 1
("seat 3" is position 2), and ``FieldError.seats`` holds the positions. Every
code is listed in ``games.codes``.
"""

from games.cards import Card, Suit
from games.contracts import CONTRACTS, Contract, Side, TrumpRule, find_contract
from games.errors import (
    FieldError,
    GameError,
    InvalidLine,
    InvalidRecord,
    InvalidSheet,
    RuleSetError,
    SessionError,
    UnknownRuleSet,
)
from games.records import RecordResult, check_record, deal_record
from games.registry import find, listing, names, register
from games.rulesets import RuleSet, Tariff, apply_overrides
from games.sessions import SeatSummary, SessionSheet, open_sheet, seat_summaries, sheet_from_lines, sitting_out
from games.settlement import Play, Settled, settle
from games.sheet import Sheet

__all__ = [
    "CONTRACTS",
    "Card",
    "Contract",
    "FieldError",
    "GameError",
    "InvalidLine",
    "InvalidRecord",
    "InvalidSheet",
    "Play",
    "RecordResult",
    "RuleSet",
    "RuleSetError",
    "SeatSummary",
    "SessionError",
    "SessionSheet",
    "Settled",
    "Sheet",
    "Side",
    "Suit",
    "Tariff",
    "TrumpRule",
    "UnknownRuleSet",
    "apply_overrides",
    "check_record",
    "deal_record",
    "find",
    "find_contract",
    "listing",
    "names",
    "open_sheet",
    "register",
    "seat_summaries",
    "settle",
    "sheet_from_lines",
    "sitting_out",
]
