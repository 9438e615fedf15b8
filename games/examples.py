"""Worked examples of a rule set: a few deals every club settles differently, settled by the engine.

An organiser checks a house rule set against them before the evening (the rule set editor shows them beside
the form); ``python -m games examples --rules R`` prints the same, so what the page shows is what the engine
says. Each example is played on a fresh sheet of four (dealer seat 1), so doubling comes only from its own lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rulesets import RuleSet
from games.sheet import Sheet


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """One example: its lines in order (the last is the one shown) and how that one settled."""

    key: str  # what it shows, stable for the pages that word it
    lines: tuple[dict[str, Any], ...]
    points: tuple[int, ...]
    multiplier: int
    made: tuple[bool, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "lines": [dict(line) for line in self.lines],
            "points": list(self.points),
            "multiplier": self.multiplier,
            "made": list(self.made),
        }


def worked_examples(rules: RuleSet) -> list[WorkedExample]:
    """The examples the rule set can play, low contracts first:

    - ``vraag_two_overtricks``: a vraag made with two overtricks (10 tricks);
    - ``alleen_one_down``: an alleen failed by one trick;
    - ``two_miseries_one_fails``: two miserie players, the second fails (``miserie_fails``, one player who fails,
      where the rule set allows one miserie player a deal);
    - ``pass_then_troel``: an all-pass round, then a troel made (then the lowest contract, without troel).
    """
    ladder = rules.ladder
    out: list[WorkedExample] = []

    def play(key: str, *lines: dict[str, Any]) -> None:
        sheet = Sheet(rules, 4, None)
        played: list[dict[str, Any]] = []
        for number, line in enumerate(lines, start=1):
            dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
            played.append({"deal": number, "dealer": dealer, **line})
            settled = sheet.add(played[-1])
        out.append(WorkedExample(key, tuple(played), settled.points, settled.multiplier, settled.made))

    if "vraag" in ladder:
        vraag = {"contract": "vraag", "declarers": [1, 3], "tricks": _target(rules, "vraag") + 2}
        play("vraag_two_overtricks", _trump(rules, vraag))
    if "alleen" in ladder:
        alleen = {"contract": "alleen", "declarers": [2], "tricks": _target(rules, "alleen") - 1}
        play("alleen_one_down", _trump(rules, alleen))
    if "miserie" in ladder:
        if rules.multiple_miserie:
            play("two_miseries_one_fails", {"contract": "miserie", "declarers": [1, 3], "tricks": [0, 1]})
        else:
            play("miserie_fails", {"contract": "miserie", "declarers": [3], "tricks": [1]})
    after = "troel" if "troel" in ladder else ladder[0]
    play("pass_then_troel", {"contract": "pass"}, _made(rules, after))
    return out


def _target(rules: RuleSet, contract: str) -> int:
    compiled = rules.compiled[contract]
    if compiled.target is not None:
        return compiled.target
    return compiled.tariff.levels[0][0]


def _made(rules: RuleSet, contract: str) -> dict[str, Any]:
    """``contract`` made with exactly its target, by seats 0 and 2 (or seat 0 alone)."""
    compiled = rules.compiled[contract]
    line: dict[str, Any] = {"contract": contract}
    side = compiled.contract.side.value
    line["declarers"] = [0, 2] if side == "pair" else [0]
    target = _target(rules, contract)
    line["tricks"] = [target] if side == "each_alone" else target
    if compiled.target is None:
        line["level"] = target
    return _trump(rules, line)


def _trump(rules: RuleSet, line: dict[str, Any]) -> dict[str, Any]:
    """The line with the trump its declarer names, where the contract plays in a chosen trump (kleurenwiezen
    chooses it for vraag and alleen too): hearts."""
    if rules.compiled[line["contract"]].trump.value == "chosen":
        return {**line, "trump": "H"}
    return line
