"""A score-sheet line the way players write it: contract, level, trump, declarers by name, tricks.

"Abondance 9 ♥ hearts — seat 1 Ann — 10 tricks, made", "Miserie — seat 1 Ann made, seat 2 Bob failed",
"Zwicken — seat 1 Ann 2 tricks, seat 2 Bob passed…". Seats are numbered as on the table card (1, 2, 3…) and named;
nothing a person reads shows the engine's 0-based positions or Python lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from games.contracts import CONTRACTS, Side
from games.rulesets import RuleSet
from tournaments.contract_names import contract_name

SEP = " — "

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suit_text(letter: str) -> str:
    """``"H"`` → ``"♥ hearts"`` in the reader's language; a letter this module does not know is shown as it is."""
    names = {
        "C": pgettext("suit", "clubs"),
        "D": pgettext("suit", "diamonds"),
        "H": pgettext("suit", "hearts"),
        "S": pgettext("suit", "spades"),
    }
    if letter not in names:
        return str(letter)
    return f"{SUIT_SYMBOLS[letter]} {names[letter]}"


def seat_text(position: Any, names: Sequence[str]) -> str:
    """Engine position 2 → "seat 3 Cas" (the name left out when there is none)."""
    if not isinstance(position, int) or isinstance(position, bool):
        return str(position)
    name = names[position] if 0 <= position < len(names) else ""
    if not name:
        return gettext("seat %(number)s") % {"number": position + 1}
    return gettext("seat %(number)s %(name)s") % {"number": position + 1, "name": name}


def seats_text(positions: Sequence[Any], names: Sequence[str]) -> str:
    labels = [seat_text(p, names) for p in positions]
    if len(labels) == 2:
        return gettext("%(first)s and %(second)s") % {"first": labels[0], "second": labels[1]}
    return ", ".join(labels)


def tricks_text(tricks: Any) -> str:
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        return str(tricks)
    return ngettext("%(count)s trick", "%(count)s tricks", tricks) % {"count": tricks}


def made(contract_id: str, tricks: Any, level: Any, rules: RuleSet | None = None) -> bool | None:
    """Whether a side (or one miserie player) with ``tricks`` made the contract; None when the line cannot say.
    ``rules``: the rule set it was played under, where it sets the target (troel's 8 or 9 tricks)."""
    contract = CONTRACTS.get(contract_id)
    if contract is None or not isinstance(tricks, int):
        return None
    compiled = rules.compiled.get(contract_id) if rules is not None else None
    target = level if isinstance(level, int) else (compiled.target if compiled else contract.target)
    if target is None:
        return None
    return tricks == target if contract.exact else tricks >= target


def made_text(flag: bool | None) -> str:
    if flag is None:
        return ""
    return pgettext("contract result", "made") if flag else pgettext("contract result", "failed")


def describe_line(line: Mapping[str, Any], names: Sequence[str], game: str, rules: RuleSet | None = None) -> str:
    """``line`` (the engine's keys, positions from 0) in words; ``names[i]`` sits at seat ``i + 1``; ``rules``, the
    rule set it was played under, says whether it was made where the rule set sets the target."""
    if game == "zwicken":
        return describe_zwicken(line, names)
    contract_id = str(line.get("contract", ""))
    parts = [_contract_part(contract_id, line)]
    contract = CONTRACTS.get(contract_id)
    if contract is None:
        return parts[0]
    if contract.side is Side.PENALTY:
        if "offender" in line:
            parts.append(gettext("fault by %(seat)s") % {"seat": seat_text(line["offender"], names)})
        return SEP.join(parts)
    if contract.side is Side.NONE:
        return parts[0]
    declarers = list(line.get("declarers") or ())
    tricks = line.get("tricks")
    if contract.side is Side.EACH_ALONE:
        counts = tricks if isinstance(tricks, list) else [tricks]
        each = []
        for position, count in zip(declarers, counts, strict=False):
            flag = made(contract_id, count, line.get("level"), rules)
            each.append(
                gettext("%(seat)s %(result)s (%(tricks)s)")
                % {"seat": seat_text(position, names), "result": made_text(flag), "tricks": tricks_text(count)}
            )
        if each:
            parts.append(", ".join(each))
        return SEP.join(parts)
    if declarers:
        parts.append(seats_text(declarers, names))
    if tricks is not None:
        flag = made(contract_id, tricks, line.get("level"), rules)
        if flag is None:
            parts.append(tricks_text(tricks))
        else:
            parts.append(gettext("%(tricks)s, %(result)s") % {"tricks": tricks_text(tricks), "result": made_text(flag)})
    return SEP.join(parts)


def _contract_part(contract_id: str, line: Mapping[str, Any]) -> str:
    """ "Abondance 9 ♥ hearts": the name, the level if the contract has one, the trump if the line names it."""
    words = [contract_name(contract_id)]
    level = line.get("level")
    if level is not None:
        words.append(str(level))
    trump = line.get("trump")
    if trump:
        words.append(suit_text(str(trump)))
    return " ".join(words)


def describe_zwicken(line: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Zwicken line: the cut, or each seat's tricks (or that it passed) and the duties failed."""
    cut = line.get("cut")
    if cut == "void":
        return gettext("Void cut: the dealer takes the ante back")
    if cut == "belli":
        return gettext("Belli cut: the dealer pays every player but the cutter")
    played = list(line.get("played") or ())
    tricks = line.get("tricks")
    counts = tricks if isinstance(tricks, list) else []
    if not played:
        parts = [gettext("Everybody passed")]
    else:
        each = []
        for position in range(max(len(counts), len(names))):
            if position in played:
                count = counts[position] if position < len(counts) else 0
                each.append(
                    gettext("%(seat)s %(tricks)s") % {"seat": seat_text(position, names), "tricks": tricks_text(count)}
                )
            else:
                each.append(gettext("%(seat)s passed") % {"seat": seat_text(position, names)})
        parts = [", ".join(each)]
    failed = list(line.get("duties_failed") or ())
    if failed:
        parts.append(gettext("duty failed: %(seats)s") % {"seats": seats_text(failed, names)})
    return SEP.join(parts)
