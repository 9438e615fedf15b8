"""Trick play for Wiezen and Solo whist: legal cards, trick winners, early ends.

Hands are bit sets (``games.cards.mask``), so "does this player still hold a
card of the led suit" is one AND. Every error names the trick and the card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from games.cards import CARD_BY_TEXT, SUIT_MASKS, Card, Suit
from games.errors import FieldError


class PlayOutcome(NamedTuple):
    winners: list[int]  # the seat that won each completed trick
    errors: list[FieldError]
    ended_early: bool  # play stopped because the contract was decided (early-end rule)


def parse_card(text: object) -> Card | None:
    if not isinstance(text, str):
        return None
    return CARD_BY_TEXT.get(text) or CARD_BY_TEXT.get(text.upper())


def play_tricks(
    hands: Sequence[int],
    seats: Sequence[int],
    leader: int,
    plays: Sequence[object],
    trump: Suit | None,
    *,
    tricks: int = 13,
    first_card: Card | None = None,
    decided: Callable[[list[int]], bool] | None = None,
) -> PlayOutcome:
    """Play ``plays`` (card texts in the order played) from ``hands`` (bit sets by seat).

    ``seats`` are the active seats in clockwise order; ``first_card`` is a card
    the leader must lead (troel: the fourth ace); ``decided(winners)`` says
    whether the contract is decided after a trick, which ends the deal early.
    """
    held = list(hands)
    n = len(seats)
    nxt = {seat: seats[(i + 1) % n] for i, seat in enumerate(seats)}
    winners: list[int] = []
    errors: list[FieldError] = []
    seat = leader
    led: Suit | None = None
    best_seat = leader
    best: Card | None = None
    position = 0  # card position within the trick
    for i, text in enumerate(plays):
        trick_no = len(winners) + 1
        where = f"plays[{i}]"
        if len(winners) == tricks or (winners and position == 0 and decided is not None and decided(winners)):
            reason = "all tricks are played" if len(winners) == tricks else "the contract is decided"
            errors.append(FieldError("play_after_end", where, f"trick {trick_no}, card {text!r}: {reason}"))
            return PlayOutcome(winners, errors, len(winners) < tricks)
        card = parse_card(text)
        if card is None:
            errors.append(
                FieldError("unknown_card", where, f"trick {trick_no}, card {position + 1}: {text!r} is not a card")
            )
            return PlayOutcome(winners, errors, False)
        bit = 1 << card.index
        hand = held[seat]
        if not hand & bit:
            errors.append(
                FieldError(
                    "card_not_in_hand",
                    where,
                    f"trick {trick_no}, card {position + 1}: seat {seat + 1} plays {card}"
                    " but does not hold it (any more)",
                )
            )
            return PlayOutcome(winners, errors, False)
        if position == 0:
            if first_card is not None and i == 0 and card is not first_card:
                errors.append(
                    FieldError(
                        "wrong_first_lead",
                        where,
                        f"trick 1, card 1: seat {seat + 1} must lead {first_card}, not {card}",
                    )
                )
            led = card.suit
            best, best_seat = card, seat
        else:
            assert led is not None and best is not None
            if card.suit is not led and hand & SUIT_MASKS[led.order]:
                errors.append(
                    FieldError(
                        "renege",
                        where,
                        f"trick {trick_no}, card {position + 1}: seat {seat + 1} plays {card}"
                        f" but holds {led.name.lower()},"
                        " the led suit",
                    )
                )
            if card.suit is best.suit:
                if card.rank > best.rank:
                    best, best_seat = card, seat
            elif card.suit is trump:
                best, best_seat = card, seat
        held[seat] = hand & ~bit
        position += 1
        if position == n:
            winners.append(best_seat)
            seat = best_seat
            position = 0
        else:
            seat = nxt[seat]
    if position:
        errors.append(
            FieldError(
                "incomplete_trick", f"plays[{len(plays) - 1}]", f"trick {len(winners) + 1} has {position} cards of {n}"
            )
        )
    ended = len(winners) < tricks and decided is not None and bool(winners) and decided(winners)
    return PlayOutcome(winners, errors, ended)


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    """The seat that wins a trick of ``(seat, card)`` in play order: highest trump, else highest of the led suit."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card.suit is best.suit and card.rank > best.rank) or (card.suit is trump and best.suit is not trump):
            best_seat, best = seat, card
    return best_seat


def legal_cards(hand: int, led: Suit | None) -> int:
    """The cards of ``hand`` (a bit set) that may be played to a trick led in ``led``: follow suit if able."""
    if led is not None and hand & SUIT_MASKS[led.order]:
        return hand & SUIT_MASKS[led.order]
    return hand
