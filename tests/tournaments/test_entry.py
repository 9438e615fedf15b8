"""The entry service: the engine judges every line; versions are kept; standings follow."""

from __future__ import annotations

import random

import pytest

from games import find
from games.generate import random_session
from tests.factories import seated_competition
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected

pytestmark = pytest.mark.django_db


def first_sheet(players: int = 4, preset: str = "iwwa") -> ScoreSheet:
    competition = seated_competition(players=players, preset=preset)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def test_it_stores_a_valid_line_with_the_engines_points() -> None:
    sheet = first_sheet(preset="flemish")
    result = record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 10})
    entry = result.entry
    # flemish vraag: 2 + 1 per overtrick -> 10 tricks pays 4 to each winner (RULES.md §4, 002)
    assert entry.points == [-4, 4, -4, 4]
    assert (entry.deal_number, entry.version, entry.is_current, entry.contract) == (1, 1, True, "vraag")


@pytest.mark.parametrize(
    ("line", "code", "field"),
    [
        (
            {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 6},
            "partner_on_solo",
            "declarers",
        ),
        (
            {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 2], "tricks": 14},
            "tricks_out_of_range",
            "tricks",
        ),
        (
            {"deal": 1, "dealer": 0, "contract": "piccolo", "declarers": [1], "tricks": 1},
            "contract_not_enabled",
            "contract",
        ),
    ],
)
def test_a_bad_line_gives_field_errors_and_stores_nothing(line: dict[str, object], code: str, field: str) -> None:
    sheet = first_sheet()
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, line)
    assert code in rejected.value.codes
    assert field in rejected.value.by_field()
    assert not DealEntry.objects.exists()


def test_a_declarer_who_sits_out_at_a_table_of_five_is_refused_per_field() -> None:
    sheet = first_sheet(players=5)
    assert sheet.table.size == 5
    line = {"deal": 1, "dealer": 2, "contract": "alleen", "declarers": [2], "tricks": 14, "level": 9}
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, line)
    fields = rejected.value.by_field()
    assert {"declarers", "tricks", "level"} <= set(fields)
    assert {"declarer_sits_out", "tricks_out_of_range", "unexpected_field"} <= rejected.value.codes
    assert not DealEntry.objects.exists()


def test_the_same_idempotency_key_twice_stores_one_line() -> None:
    sheet = first_sheet()
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
    first = record_deal(sheet, line, idempotency_key="tablet-7-abc")
    again = record_deal(sheet, dict(line), idempotency_key="tablet-7-abc")
    assert first.created and not again.created
    assert again.entry.pk == first.entry.pk
    assert DealEntry.objects.filter(sheet=sheet).count() == 1


def test_an_idempotency_key_reused_for_another_line_is_refused() -> None:
    sheet = first_sheet()
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"}, idempotency_key="k1")
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "pass"}, idempotency_key="k1")
    assert rejected.value.codes == {"idempotency_conflict"}
    assert DealEntry.objects.filter(sheet=sheet).count() == 1


def test_correcting_deal_3_of_16_resettles_the_later_deals_whose_doubling_changes() -> None:
    # flemish: the deal after an all-pass round counts double (002 "Na een rondje pas ... dubbel").
    sheet = first_sheet(preset="flemish")
    rules = find("flemish")
    lines = random_session(rules, random.Random(7), 4, 16, pass_rate=0.0)
    for line in lines:
        record_deal(sheet, line)
    before = {e.deal_number: e for e in DealEntry.objects.filter(sheet=sheet, is_current=True)}
    assert before[4].multiplier in (1, 2)  # 2 only when deal 4 itself was taken by the side with all tricks

    corrected = {"deal": 3, "dealer": lines[2]["dealer"], "contract": "pass"}
    result = record_deal(sheet, corrected, expected_version=1)

    current = {e.deal_number: e for e in DealEntry.objects.filter(sheet=sheet, is_current=True)}
    assert len(current) == 16
    assert current[3].line == corrected and current[3].version == 2 and current[3].points == [0, 0, 0, 0]
    # deal 4 now follows an all-pass round: exactly twice what it settled for before
    assert current[4].points == [2 * p for p in before[4].points]
    assert current[4].multiplier == 2 * before[4].multiplier
    assert current[4].version == 2 and current[4].source == DealEntry.Source.RESETTLE
    assert [e.deal_number for e in result.resettled] == [4]
    # later deals do not depend on deal 3 under flemish: untouched, still version 1
    assert all(current[n].version == 1 and current[n].points == before[n].points for n in range(5, 17))
    # nothing was overwritten: the old versions are still there
    old = DealEntry.objects.get(sheet=sheet, deal_number=4, version=1)
    assert old.points == before[4].points and not old.is_current


def test_a_correction_that_breaks_a_later_deal_is_refused_and_changes_nothing() -> None:
    # belgian: after an all-pass round the same dealer redeals (000), so turning deal 1 into a
    # pass puts deal 2's dealer out of rotation.
    sheet = first_sheet(preset="belgian")
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5})
    record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [2], "tricks": 5})
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"}, expected_version=1)
    assert rejected.value.codes == {"breaks_later_deal"}
    assert "deal 2" in str(rejected.value)
    assert DealEntry.objects.filter(sheet=sheet).count() == 2


def test_a_final_sheet_takes_no_more_lines() -> None:
    sheet = first_sheet()
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.FINAL)
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    assert rejected.value.codes == {"sheet_final"}


def test_a_complete_sheet_becomes_entered() -> None:
    sheet = first_sheet()
    for line in random_session(find("iwwa"), random.Random(3), 4, 16):
        record_deal(sheet, line)
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
