"""Every ``FieldError`` code the engine can produce, in one place.

Clients match on codes; whoever words the errors for people (``tournaments.line_errors``) needs a sentence
for each. ``tests/games/test_error_codes.py`` reads the engine's source and checks this list is complete.
"""

from __future__ import annotations

#: a score-sheet line (``games.lines``, ``games.zwicken.lines``, ``games.sheet``): what the entry page can meet
LINE_CODES: frozenset[str] = frozenset(
    {
        "not_an_object",
        "unknown_field",
        "missing_field",
        "wrong_type",
        "deal_out_of_sequence",
        "deal_beyond_session",
        "seat_out_of_range",
        "dealer_out_of_rotation",
        "unknown_contract",
        "contract_not_enabled",
        "unexpected_field",
        "missing_declarer",
        "missing_partner",
        "partner_on_solo",
        "too_many_declarers",
        "several_declarers_not_allowed",
        "duplicate_declarer",
        "declarer_sits_out",
        "offender_sits_out",
        "tricks_shape",
        "tricks_out_of_range",
        "tricks_impossible",
        "tricks_after_early_end",
        "level_out_of_range",
        "level_not_enabled",
        "trump_required",
        "trump_not_allowed",
        "unknown_suit",
        "points_not_zero_sum",
        "points_mismatch",
        "too_long",
        # Zwicken
        "unknown_cut",
        "cut_not_enabled",
        "duplicate_seat",
        "pass_not_allowed",
        "tricks_by_passed_player",
        "duty_by_passed_player",
        "trump_ace_passed",
        "chips_not_conserved",
        "chips_mismatch",
        "pot_mismatch",
        # a duplicate round's line against its board (``games.duplicate.validation``); the troel and turned-trump
        # codes are a full deal record's too
        "dealer_not_boards",
        "four_aces_not_troel",
        "troel_without_three_aces",
        "troel_wrong_partner",
        "trump_not_troel",
        "trump_not_turned",
    }
)

#: a full deal record (``games.records``, ``games.auction``, ``games.play``, ``games.zwicken.records``) and the
#: command line (``games.cli``), beyond the line codes
RECORD_CODES: frozenset[str] = frozenset(
    {
        "auction_incomplete",
        "bid_after_end",
        "bid_after_pass",
        "bid_by_sitting_out",
        "bid_not_enabled",
        "bid_out_of_turn",
        "bid_too_low",
        "card_not_in_deck",
        "card_not_in_hand",
        "cut_ends_deal",
        "cut_not_bottom",
        "decision_out_of_order",
        "decisions_incomplete",
        "duplicate_card",
        "exchange_by_passed_player",
        "exchange_out_of_order",
        "hand_not_boards",
        "hand_size",
        "hands_shape",
        "incomplete_play",
        "incomplete_trick",
        "invalid_deal",
        "invalid_json",
        "invalid_rules",
        "invalid_session",
        "meegaan_without_vraag",
        "missing_card",
        "must_trump",
        "not_zwicken",
        "out_of_turn",
        "play_after_end",
        "play_by_passed_player",
        "players_out_of_range",
        "renege",
        "talon_exhausted",
        "too_many_decisions",
        "too_many_exchanged",
        "too_many_plays",
        "turned_not_boards",
        "turned_not_dealers",
        "unknown_bid",
        "unknown_card",
        "unknown_decision",
        "unknown_rules",
        "unreadable_record",
        "unreadable_sheet",
        "wrong_first_lead",
        "wrong_leader",
    }
)

CODES: frozenset[str] = LINE_CODES | RECORD_CODES
