"""``python -m games``: listing rule sets and scoring a score sheet from the shell.

Expected points are worked out by hand from RULES.md §3-§4 (arithmetic in the comments).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.cli import main

ROOT = Path(__file__).resolve().parents[2]
PRESET_NAMES = ("iwwa", "flemish", "belgian", "solo_whist")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games", *args], cwd=ROOT, capture_output=True, text=True, input=stdin, timeout=60
    )


def call(argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def write_sheet(path: Path, lines: Sequence[object]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


# A flemish sheet worked out by hand:
FLEMISH_SHEET = [
    # vraag 9 tricks: 2 + 1 overtrick = 3 each -> (-3, 3, -3, 3)
    {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 9},
    # all four pass: nothing, the next deal counts double
    {"deal": 2, "dealer": 1, "contract": "pass"},
    # alleen 6 tricks: 2 + 1 = 3 per opponent, x2 = 6 -> declarer +18, the others -6
    {"deal": 3, "dealer": 2, "contract": "alleen", "declarers": [0], "tricks": 6},
    # penalty: offender -15, the others +5, not multiplied
    {"deal": 4, "dealer": 3, "contract": "penalty", "offender": 2},
]
FLEMISH_EXPECTED = [
    {"deal": 1, "points": [-3, 3, -3, 3], "multiplier": 1, "totals": [-3, 3, -3, 3]},
    {"deal": 2, "points": [0, 0, 0, 0], "multiplier": 1, "totals": [-3, 3, -3, 3]},
    {"deal": 3, "points": [18, -6, -6, -6], "multiplier": 2, "totals": [15, -3, -9, -3]},
    {"deal": 4, "points": [5, 5, -15, 5], "multiplier": 1, "totals": [20, 2, -24, 2]},
]


# --- presets ---------------------------------------------------------------------------------------------------


def test_presets_lists_the_four_presets() -> None:
    result = run("presets")
    assert result.returncode == 0, result.stderr
    starts = {line.split()[0] for line in result.stdout.splitlines() if line and not line[0].isspace()}
    assert set(PRESET_NAMES) <= starts


def test_presets_lists_each_preset_with_its_ladder() -> None:
    code, out, _ = call(["presets"])
    assert code == 0
    rows = {line.split()[0]: line.split()[2:] for line in out.splitlines() if line and not line[0].isspace()}
    assert rows["flemish"] == [
        "vraag",
        "alleen",
        "abondance",
        "abondance_troef",
        "miserie",
        "troel",
        "open_miserie",
        "solo_slim",
    ]
    assert "piccolo" in rows["belgian"] and "piccolo" not in rows["iwwa"]
    assert rows["solo_whist"][-1] == "abondance_declaree"


# --- score -----------------------------------------------------------------------------------------------------


def test_score_prints_one_json_object_per_deal_with_running_totals(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET)
    result = run("score", "--rules", "flemish", str(sheet))
    assert result.returncode == 0, result.stderr
    assert records(result.stdout) == FLEMISH_EXPECTED
    assert result.stderr == ""


def test_score_in_process_gives_the_same_records(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET)
    code, out, err = call(["score", "--rules", "flemish", str(sheet)])
    assert (code, err) == (0, "")
    assert records(out) == FLEMISH_EXPECTED


def test_score_reads_the_sheet_from_standard_input() -> None:
    text = "".join(json.dumps(line) + "\n" for line in FLEMISH_SHEET)
    result = run("score", "--rules", "flemish", "-", stdin=text)
    assert result.returncode == 0, result.stderr
    assert records(result.stdout) == FLEMISH_EXPECTED


def test_score_skips_blank_lines(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", [FLEMISH_SHEET[0], "", "   ", FLEMISH_SHEET[1]])
    code, out, _ = call(["score", "--rules", "flemish", str(sheet)])
    assert code == 0
    assert [r["deal"] for r in records(out)] == [1, 2]


def test_score_uses_the_rule_set_it_is_given(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET[:1])
    # belgian vraag 9 tricks: 1 + 1 = 2, per_pair: every loser pays every winner 2 -> +-4
    code, out, _ = call(["score", "--rules", "belgian", str(sheet)])
    assert code == 0
    assert records(out) == [{"deal": 1, "points": [-4, 4, -4, 4], "multiplier": 1, "totals": [-4, 4, -4, 4]}]


def test_score_accepts_a_rule_set_name_with_variants(tmp_path: Path) -> None:
    line = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 9, "trump": "H"}
    sheet = write_sheet(tmp_path / "sheet.jsonl", [line])
    code, out, _ = call(["score", "--rules", "flemish+kleurenwiezen", str(sheet)])
    assert code == 0
    assert records(out)[0]["points"] == [-3, 3, -3, 3]


def test_score_at_a_table_of_five(tmp_path: Path) -> None:
    sheet = write_sheet(
        tmp_path / "sheet.jsonl",
        [
            # seat 0 deals and sits out; vraag 8 tricks = 2 each -> (0, 2, -2, 2, -2)
            {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 8},
            # seat 1 deals and sits out; alleen 5 = 2 per opponent (2, 3, 4) -> (6, 0, -2, -2, -2)
            {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [0], "tricks": 5},
        ],
    )
    result = run("score", "--rules", "flemish", "--players", "5", str(sheet))
    assert result.returncode == 0, result.stderr
    assert records(result.stdout) == [
        {"deal": 1, "points": [0, 2, -2, 2, -2], "multiplier": 1, "totals": [0, 2, -2, 2, -2]},
        {"deal": 2, "points": [6, 0, -2, -2, -2], "multiplier": 1, "totals": [6, 2, -4, 0, -4]},
    ]


def test_score_at_a_table_of_five_rejects_the_sitting_out_dealer_as_declarer(tmp_path: Path) -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [0], "tricks": 5}
    sheet = write_sheet(tmp_path / "sheet.jsonl", [line])
    code, _, err = call(["score", "--rules", "flemish", "--players", "5", str(sheet)])
    assert code == 1
    assert "line 1: declarer_sits_out [declarers]" in err


def test_score_ends_the_session_after_sixteen_deals_unless_told_twenty_four(tmp_path: Path) -> None:
    lines = [
        {"deal": d, "dealer": (d - 1) % 4, "contract": "alleen", "declarers": [d % 4], "tricks": 5}
        for d in range(1, 18)
    ]
    sheet = write_sheet(tmp_path / "sheet.jsonl", lines)
    code, _, err = call(["score", "--rules", "iwwa", str(sheet)])
    assert code == 1
    assert "line 17: deal_beyond_session [deal]" in err
    code, out, _ = call(["score", "--rules", "iwwa", "--deals", "24", str(sheet)])
    assert code == 0
    assert len(records(out)) == 17


def test_score_reads_overrides_of_a_preset_from_a_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "club.json"
    rules.write_text(json.dumps({"preset": "flemish", "tariffs": {"miserie": {"base": 8}}}), encoding="utf-8")
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": [0]}
    sheet = write_sheet(tmp_path / "sheet.jsonl", [line])
    result = run("score", "--rules", str(rules), str(sheet))
    assert result.returncode == 0, result.stderr
    # miserie overridden to 8 per opponent (flemish says 5): declarer +24, the others -8
    assert records(result.stdout) == [
        {"deal": 1, "points": [-8, 24, -8, -8], "multiplier": 1, "totals": [-8, 24, -8, -8]}
    ]


def test_score_reads_a_full_rule_set_from_a_rules_file(tmp_path: Path) -> None:
    from games import find

    rules = tmp_path / "iwwa-copy.json"
    rules.write_text(json.dumps(find("iwwa").to_json()), encoding="utf-8")
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": [0]}
    sheet = write_sheet(tmp_path / "sheet.jsonl", [line])
    code, out, _ = call(["score", "--rules", str(rules), str(sheet)])
    assert code == 0
    # iwwa miserie 7 per opponent: +21 / -7
    assert records(out)[0]["points"] == [-7, 21, -7, -7]


def test_score_rejects_a_bad_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "club.json"
    rules.write_text(json.dumps({"preset": "flemish", "penalty": -3}), encoding="utf-8")
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET)
    code, out, err = call(["score", "--rules", str(rules), str(sheet)])
    assert code == 1
    assert out == ""
    assert "invalid_rules" in err and "-3" in err


def test_score_rejects_a_rules_file_that_is_not_json(tmp_path: Path) -> None:
    rules = tmp_path / "club.json"
    rules.write_text("{preset: flemish", encoding="utf-8")
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET)
    code, _, err = call(["score", "--rules", str(rules), str(sheet)])
    assert code == 1
    assert "invalid_rules" in err and "club.json" in err


def test_score_rejects_an_unknown_rule_set() -> None:
    result = run("score", "--rules", "skat", "-", stdin="")
    assert result.returncode == 1
    assert "invalid_rules" in result.stderr and "'skat'" in result.stderr
    assert result.stdout == ""


def test_score_rejects_an_unknown_variant(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", FLEMISH_SHEET)
    code, _, err = call(["score", "--rules", "flemish+zwart", str(sheet)])
    assert code == 1
    assert "'zwart'" in err


def test_score_reports_a_missing_sheet_file(tmp_path: Path) -> None:
    code, _, err = call(["score", "--rules", "flemish", str(tmp_path / "nowhere.jsonl")])
    assert code == 1
    assert "unreadable_sheet" in err


# --- bad sheets ------------------------------------------------------------------------------------------------

BAD_SHEET: list[object] = [
    {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 9},
    {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [1, 3], "tricks": 14},  # tricks_out_of_range
    # dealer_out_of_rotation (seat 2 deals deal 3), partner_on_solo
    {"deal": 3, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 5},
    {"deal": 4, "dealer": 3, "contract": "pass"},
]


def test_a_bad_sheet_exits_one_and_prints_every_error_with_line_code_and_field(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", BAD_SHEET)
    result = run("score", "--rules", "flemish", str(sheet))
    assert result.returncode == 1
    assert result.stdout == ""  # no partial results
    err = result.stderr.splitlines()
    assert len(err) == 3
    assert err[0].startswith("line 2: tricks_out_of_range [tricks]") and "14" in err[0]
    assert any(line.startswith("line 3: dealer_out_of_rotation [dealer]") for line in err[1:])
    assert any(line.startswith("line 3: partner_on_solo [declarers]") for line in err[1:])


def test_json_errors_prints_one_object_per_error(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", BAD_SHEET)
    code, out, err = call(["score", "--rules", "flemish", "--json-errors", str(sheet)])
    assert code == 1
    assert err == ""
    errors = records(out)
    assert all(set(e) == {"line", "code", "field", "message"} for e in errors)
    assert {(e["line"], e["code"], e["field"]) for e in errors} == {
        (2, "tricks_out_of_range", "tricks"),
        (3, "dealer_out_of_rotation", "dealer"),
        (3, "partner_on_solo", "declarers"),
    }
    assert all(e["message"] for e in errors)


def test_error_line_numbers_count_blank_lines_of_the_file(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", [BAD_SHEET[0], "", BAD_SHEET[1]])
    code, out, _ = call(["score", "--rules", "flemish", "--json-errors", str(sheet)])
    assert code == 1
    assert [(e["line"], e["code"]) for e in records(out)] == [(3, "tricks_out_of_range")]


def test_a_line_that_is_not_json_is_reported_once_and_the_rest_still_checked(tmp_path: Path) -> None:
    sheet = write_sheet(
        tmp_path / "sheet.jsonl",
        [
            BAD_SHEET[0],
            '{"deal": 2, "dealer": 1, "contract": ',  # not JSON
            {"deal": 3, "dealer": 2, "contract": "alleen", "declarers": [1], "tricks": 5},  # fine
            {"deal": 4, "dealer": 0, "contract": "pass"},  # dealer_out_of_rotation: seat 3 deals deal 4
        ],
    )
    result = run("score", "--rules", "flemish", "--json-errors", str(sheet))
    assert result.returncode == 1
    assert [(e["line"], e["code"], e["field"]) for e in records(result.stdout)] == [
        (2, "invalid_json", ""),
        (4, "dealer_out_of_rotation", "dealer"),
    ]


def test_a_json_value_that_is_not_an_object_is_reported(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "sheet.jsonl", [BAD_SHEET[0], '[2, 1, "pass"]'])
    code, _, err = call(["score", "--rules", "flemish", str(sheet)])
    assert code == 1
    assert "line 2: not_an_object" in err


# --- usage -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["deal"],
        ["score", "sheet.jsonl"],  # --rules is required
        ["score", "--rules", "flemish"],  # the sheet is required
        ["score", "--rules", "flemish", "--players", "6", "sheet.jsonl"],
        ["score", "--rules", "flemish", "--deals", "20", "sheet.jsonl"],
        ["score", "--rules", "flemish", "--players", "four", "sheet.jsonl"],
    ],
)
def test_bad_usage_exits_two(argv: list[str]) -> None:
    result = run(*argv)
    assert result.returncode == 2
    assert "usage" in result.stderr


def test_bad_usage_in_process_exits_two() -> None:
    with pytest.raises(SystemExit) as exc:
        call(["score", "--players", "6"])
    assert exc.value.code == 2
