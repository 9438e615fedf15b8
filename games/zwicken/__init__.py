"""Zwicken (source 001, RULES.md §6): the Austrian/Bavarian money trick-taking game.

Each for himself, 2 to 5 players, a running pot of chips instead of points.
Sessions are open-ended (``ZwickenSheet``); a deal is entered either as a
score-sheet line or as a full deal record (``check_record``).

Score-sheet lines
=================
One JSON object per deal, in order::

    {"deal": 3, "dealer": 1, "played": [0, 2, 3], "tricks": [2, 0, 1, 0], "duties_failed": [2]}
    {"deal": 4, "dealer": 2, "cut": "void"}
    {"deal": 5, "dealer": 2, "cut": "belli"}
    {"deal": 6, "dealer": 1, "played": [], "tricks": [0, 0, 0, 0]}

- ``deal``: 1, 2, 3...; ``dealer``: a seat. The first line's dealer is free;
  then clockwise, except that a void cut keeps the dealer and a Belli cut
  passes the deal to the cutter (the dealer's right, ``(dealer - 1) % players``).
- ``played``: the seats that said "play" (any order, no repeats); every seat
  under ``may_pass: false`` (Dreierzwicken). ``[]``: everybody passed.
- ``tricks``: tricks taken by seat, one count per seat: 0 for a seat that
  passed, summing to ``hand`` (3, or 4 in the four-card game), or all 0 when
  nobody played.
- ``duties_failed`` (optional): seats that failed the trump-ace duty (not
  leading it at their first lead) or the Belli duty (not playing the 7♦ on
  the led trump ace); each pays one bete.
- ``trump_ace`` (optional): the seat dealt the trump ace; it may not pass, so
  it must be in ``played``.
- ``cut``: ``"void"`` (the cut exposed an ace or a seven other than the 7♦)
  or ``"belli"`` (it exposed the 7♦); a cut line has no ``played``,
  ``tricks``, ``duties_failed`` or ``trump_ace``.
- Optional ``chips`` (each seat's change, entered by hand) and ``pot`` (the
  pot after the deal): both are checked against the settlement, and when
  both are given they must conserve chips (``sum(chips)`` plus the pot's
  change is 0). Optional ``note`` (text).

Settlement (``games.zwicken.settlement``): the dealer antes ``ante``; a void
cut gives it back; a Belli cut leaves it in the pot and makes the dealer pay
``ante`` to every seat but the cutter; otherwise the pot is cut into ``hand``
shares (integer division, the remainder stays), a trick takes a share, a
*Durchmarsch* takes the whole pot; each player who played and took no trick,
and each failed duty, pays a ``bete`` into the pot. ``Settled.points`` are the
chip changes, ``Settled.pot`` the pot after the deal, ``Settled.contract``
``"zwicken"``, ``"void"`` or ``"belli"``.

Deal records
============
The whole deal, cards included::

    {"rules": "zwicken", "players": 4, "dealer": 0, "cut": "9H",
     "hands": [["QS", "8C", "KD"], ["AH", "9C", "JS"], ["7D", "10C", "8S"], ["JH", "QC", "10D"]],
     "turned": "KH", "talon": ["7C", "8H", ..., "9H"],
     "decisions": [[1, "play"], [2, "pass"], [3, "play"], [0, "play"]],
     "exchanges": [[1, ["9C", "JS"]]],
     "plays": ["AH", "JH", "KD", ...], "pot": 0}

- ``rules``: a registered Zwicken rule set name, or a rule-set object
  (``RuleSet.from_json``); ``players`` within its range; ``dealer`` a seat.
- ``cut``: the card the hop-and-jump cut exposed; it ends at the bottom of
  the pack, so it is the talon's last card. An ace or a non-diamond seven
  voids the deal, the 7♦ is a Belli cut: such a record stops there (no
  ``hands`` ... ``plays``). Optional when ``hop_and_jump`` is off.
- ``hands`` by seat, ``hand`` cards each; ``turned``: the trump card, set
  aside; ``talon``: the rest of the deck, top first.
- ``decisions``: one ``[seat, "play" | "pass"]`` per seat, clockwise from the
  dealer's left.
- ``exchanges`` (optional): ``[seat, [cards given up]]`` in the same order,
  only by players who play, at most ``exchange`` cards; each card given up is
  replaced by the talon's next card.
- ``plays``: every card in the order played; the first player in from the
  dealer's left leads, the trick's winner leads the next.
- ``pot``: the pot carried in before the dealer's ante (default 0);
  ``deal`` (default 1) and ``note`` are optional.

``check_record`` returns ``RecordResult(line, settled)``: the record's
score-sheet line (with ``played``, ``tricks``, ``duties_failed``,
``trump_ace``) and its settlement, or raises ``InvalidRecord``.
``deal_record`` deals a reproducible record from a seed; ``random_record``
plays a random legal one.

Choices where the source is silent or loose: a bete per failure, so betes
add up (no trick and a failed duty: two betes); Durchmarsch betes are the
ordinary no-trick betes; the Belli duty binds only a player other than the
one who leads the trump ace; duties are judged on the hands after the
exchanges (a card drawn in an exchange may itself be given up, the trump
ace included); the pot is shared in ``hand`` parts (a quarter per trick in
the four-card game); after an all-pass deal the deal moves on clockwise; the
talon can run out in the four-card game at five (``talon_exhausted``).
"""

from games.zwicken.cards import BELLI, SECHSER_BELLI, TrumpOrder
from games.zwicken.generate import deal_record, random_record
from games.zwicken.lines import ZwickenPlay, check_zwicken_line
from games.zwicken.records import RecordResult, check_record
from games.zwicken.settlement import settle_zwicken
from games.zwicken.sheet import ZwickenSheet

__all__ = [
    "BELLI",
    "SECHSER_BELLI",
    "RecordResult",
    "TrumpOrder",
    "ZwickenPlay",
    "ZwickenSheet",
    "check_record",
    "check_zwicken_line",
    "deal_record",
    "random_record",
    "settle_zwicken",
]
