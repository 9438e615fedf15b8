"""``python -m games play RECORD.json`` and ``python -m games deal``: full deal records from the shell.

Run as a real subprocess (``sys.executable -m games``) from the repository root. Points worked out by hand
from RULES.md §4.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import find
from games.dealing import shuffled
from games.records import deal_record

ROOT = Path(__file__).resolve().parents[2]
RANKS_DOWN = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games", *args], cwd=ROOT, capture_output=True, text=True, input=stdin, timeout=60
    )


def suit_down(suit: str) -> list[str]:
    return [rank + suit for rank in RANKS_DOWN]


def ruffed_alleen() -> dict[str, Any]:
    """Dealer 0 holds all clubs (turned 2C) and plays alleen. Seat 1 holds the spades but the 2S is with seat 2,
    which has the hearts but the AH is with seat 1; seat 3 holds the diamonds.

    Seat 1 leads the AS, seat 2 follows with its 2S, seat 3 discards, seat 0 ruffs with the 2C and then runs
    the clubs: nobody else holds a club, so the dealer takes all 13 tricks.
    """
    spades = [*suit_down("S")[:-1], "AH"]  # seat 1
    hearts = [*suit_down("H")[1:], "2S"]  # seat 2
    plays = ["AS", "2S", "AD", "2C"]
    for k in range(12):
        plays += [suit_down("C")[k], spades[k + 1], hearts[k], suit_down("D")[k + 1]]
    return {
        "rules": "iwwa",
        "players": 4,
        "dealer": 0,
        "turned": "2C",
        "hands": [suit_down("C"), spades, hearts, suit_down("D")],
        "bids": [[1, "pass"], [2, "pass"], [3, "pass"], [0, "alleen"]],
        "plays": plays,
    }


def reneged() -> dict[str, Any]:
    """Seat 2 plays the KH on the AS while holding the 2S, and the 2S later on a club lead: one renege."""
    record = ruffed_alleen()
    plays = record["plays"]
    at = plays.index("KH")
    plays[1], plays[at] = plays[at], plays[1]
    return record


def write(path: Path, record: object) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# --- play ----------------------------------------------------------------------------------------------------------


def test_play_prints_the_derived_line_and_the_points(tmp_path: Path) -> None:
    done = run("play", str(write(tmp_path / "deal.json", ruffed_alleen())))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = json.loads(done.stdout)
    assert out["line"] == {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [0], "tricks": 13}
    # iwwa alleen 13 tricks: 2 + 8 over = 10, all tricks x2 = 20 per opponent
    assert out["points"] == [60, -20, -20, -20]
    assert out["multiplier"] == 2


def test_play_settles_under_the_rule_set_named_in_the_record(tmp_path: Path) -> None:
    record = ruffed_alleen()
    record["rules"] = "belgian"  # alleen: a fixed 3 from each of three, no doubling
    out = json.loads(run("play", str(write(tmp_path / "deal.json", record))).stdout)
    assert out["points"] == [9, -3, -3, -3]
    assert out["multiplier"] == 1


def test_play_reads_the_record_from_standard_input() -> None:
    done = run("play", "-", stdin=json.dumps(ruffed_alleen()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["points"] == [60, -20, -20, -20]


def test_play_exits_one_and_prints_the_renege_with_its_code_trick_and_card(tmp_path: Path) -> None:
    done = run("play", str(write(tmp_path / "deal.json", reneged())))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "renege" in lines[0] and "plays[1]" in lines[0]
    assert "trick 1" in lines[0] and "KH" in lines[0]


def test_play_prints_every_error_of_a_record(tmp_path: Path) -> None:
    record = ruffed_alleen()
    record["hands"][3][0] = record["hands"][2][0]  # the KH twice, the AD nowhere
    record["turned"] = "AS"  # seat 1's card, not the dealer's
    record["hands"][1].pop()  # twelve cards
    done = run("play", str(write(tmp_path / "deal.json", record)))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 3
    assert any(line.startswith("input: duplicate_card [hands[3][0]]") and "KH" in line for line in lines)
    assert any(line.startswith("input: hand_size [hands[1]]") for line in lines)
    assert any(line.startswith("input: turned_not_dealers [turned]") for line in lines)


def test_play_json_errors_prints_one_object_per_error_on_standard_output(tmp_path: Path) -> None:
    done = run("play", "--json-errors", str(write(tmp_path / "deal.json", reneged())))
    assert done.returncode == 1
    assert done.stderr == ""
    errors = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(errors) == 1
    assert errors[0]["line"] is None
    assert errors[0]["code"] == "renege"
    assert errors[0]["field"] == "plays[1]"
    assert errors[0]["message"].startswith("trick 1, card 2: seat 3 plays KH")


@pytest.mark.parametrize(
    ("content", "code"),
    [("{not json", "invalid_json"), ('["a", "list"]', "not_an_object"), ('{"rules": "nope"}', "invalid_rules")],
)
def test_play_rejects_a_file_that_is_not_a_record(tmp_path: Path, content: str, code: str) -> None:
    path = tmp_path / "deal.json"
    path.write_text(content, encoding="utf-8")
    done = run("play", "--json-errors", str(path))
    assert done.returncode == 1
    assert [json.loads(line)["code"] for line in done.stdout.splitlines()] == [code]


def test_play_reports_a_missing_file(tmp_path: Path) -> None:
    done = run("play", str(tmp_path / "absent.json"))
    assert done.returncode == 1
    assert "unreadable_record" in done.stderr


# --- deal ----------------------------------------------------------------------------------------------------------


def test_deal_prints_a_reproducible_record() -> None:
    first = run("deal", "--rules", "iwwa", "--seed", "7")
    second = run("deal", "--rules", "iwwa", "--seed", "7")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert json.loads(first.stdout) == deal_record(find("iwwa"), 4, 0, 7)


def test_deal_gives_four_hands_of_thirteen_and_no_bids_or_plays() -> None:
    record = json.loads(run("deal", "--rules", "iwwa", "--seed", "7").stdout)
    assert set(record) == {"rules", "players", "dealer", "turned", "hands"}
    assert record["rules"] == "iwwa" and record["players"] == 4 and record["dealer"] == 0
    assert [len(hand) for hand in record["hands"]] == [13, 13, 13, 13]
    assert len({card for hand in record["hands"] for card in hand}) == 52
    assert record["turned"] in record["hands"][0]  # the dealer keeps the turned card


def test_deal_deals_the_seeded_pack_four_four_five_from_the_dealers_left() -> None:
    record = json.loads(run("deal", "--rules", "iwwa", "--seed", "7").stdout)
    pack = [str(c) for c in shuffled(52, 7)]
    assert record["hands"][1] == pack[0:4] + pack[16:20] + pack[32:37]
    assert record["hands"][0] == pack[12:16] + pack[28:32] + pack[47:52]
    assert record["turned"] == pack[51]


def test_deal_with_another_seed_deals_other_cards() -> None:
    seven = json.loads(run("deal", "--rules", "iwwa", "--seed", "7").stdout)
    eight = json.loads(run("deal", "--rules", "iwwa", "--seed", "8").stdout)
    assert seven["hands"] != eight["hands"]


def test_deal_at_a_table_of_five_leaves_the_dealer_out() -> None:
    done = run("deal", "--rules", "solo_whist", "--seed", "3", "--players", "5", "--dealer", "3")
    record = json.loads(done.stdout)
    assert [len(hand) for hand in record["hands"]] == [13, 13, 13, 0, 13]
    assert record["turned"] in record["hands"][2]  # the seat on the dealer's right was dealt the last card
    # solo whist deals 3-3-3-3-1: the dealer's left (seat 4) gets the first three cards
    assert record["hands"][4][:3] == [str(c) for c in shuffled(52, 3)[:3]]


def test_a_dealt_record_with_an_all_pass_auction_plays_as_a_passed_deal(tmp_path: Path) -> None:
    record = json.loads(run("deal", "--rules", "flemish", "--seed", "11").stdout)
    record["bids"] = [[1, "pass"], [2, "pass"], [3, "pass"], [0, "pass"]]
    record["plays"] = []
    done = run("play", str(write(tmp_path / "deal.json", record)))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["line"] == {"deal": 1, "dealer": 0, "contract": "pass"}
    assert out["points"] == [0, 0, 0, 0]


def test_a_dealt_record_without_bids_is_not_a_playable_record(tmp_path: Path) -> None:
    record = json.loads(run("deal", "--rules", "iwwa", "--seed", "7").stdout)
    done = run("play", "--json-errors", str(write(tmp_path / "deal.json", record)))
    assert done.returncode == 1
    assert [json.loads(line)["code"] for line in done.stdout.splitlines()] == ["missing_field"]


@pytest.mark.parametrize(
    "args", [["--rules", "nope", "--seed", "1"], ["--rules", "iwwa", "--seed", "1", "--players", "6"]]
)
def test_deal_rejects_unknown_rules_or_tables(args: list[str]) -> None:
    done = run("deal", *args)
    assert done.returncode == 1
    assert "invalid_deal" in done.stderr
