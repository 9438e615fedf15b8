"""When a competition may be duplicate: asked by ``Competition.clean``, so the settings page, the API, the admin
and every service that validates meet the same rule (the database adds ``competition_duplicate_wiezen_only``).

- Wiezen only: solo whist and Zwicken boards would need their own dealing and checks.
- The movement (``games.duplicate.movement``: all tables at once, or a relay) is chosen before the first round
  too, and a relay needs duplicate play.
- Chosen before the first round is seated: every round of a duplicate competition has its boards, dealt when it
  was made, and a round without them (or with boards nobody plays) would compare nothing.
- A duplicate competition's deals per session stay as they are once rounds are seated: its rounds' boards were
  dealt for that many deals.
- Its rule set keeps every table's deal *k* on board *k* and the boards' scores comparable (``rules_problems``):
  a passed deal counts as a deal, the next dealer deals after it, nothing is doubled after it, and no extra deal
  breaks a tie (there is no board for it). Checked whenever the competition is, so a rule set changed on a
  duplicate competition too.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from games.errors import GameError
from games.rulesets import AfterPass, Doubling, RuleSet, TieBreak

WIEZEN = "wiezen"
RELAY = "relay"


def setting_problems(competition: Any) -> dict[str, str]:
    """What is wrong with ``competition``'s duplicate setting, by field (empty when nothing is)."""
    if competition.duplicate and competition.game != WIEZEN:
        return {
            "duplicate": _(
                "Duplicate play is for Wiezen only: %(game)s is played with the deals as they come. "
                "Untick “duplicate” or choose Wiezen."
            )
            % {"game": competition.get_game_display()}
        }
    if competition.duplicate and (unfit := _rule_set_problem(competition)):
        return {"rule_set": unfit}
    if competition.movement == RELAY and not competition.duplicate:
        return {
            "movement": _(
                "Boards are handed on between tables only in duplicate play: tick “duplicate”, or let all tables "
                "play at once."
            )
        }
    if competition.pk is None:
        return {}
    stored = (
        type(competition).objects.filter(pk=competition.pk).values("duplicate", "deals_per_session", "movement").first()
    )
    if stored is None or not competition.rounds.exists():
        return {}
    if stored["movement"] != competition.movement:
        return {
            "movement": _(
                "%(competition)s has rounds seated: its tables already know which boards they play in which order, "
                "so the movement stays as it was."
            )
            % {"competition": competition}
        }
    if stored["duplicate"] != competition.duplicate:
        return {
            "duplicate": _(
                "%(competition)s has rounds seated: duplicate play is chosen before the first round, so that "
                "every round has its boards."
            )
            % {"competition": competition}
        }
    if competition.duplicate and stored["deals_per_session"] != competition.deals_per_session:
        return {
            "deals_per_session": _(
                "%(competition)s plays duplicate and has rounds seated: their boards were dealt for "
                "%(deals)s deals, so the number of deals stays %(deals)s."
            )
            % {"competition": competition, "deals": stored["deals_per_session"]}
        }
    return {}


def rules_problems(rules: RuleSet) -> list[str]:
    """Why ``rules`` would let a duplicate round's deals drift from its boards or make its scores incomparable, one
    phrase a reason in the reader's language (empty when the rules fit)."""
    problems = []
    if not rules.passes_count:
        problems.append(_("a passed deal does not count as a deal, so the deals would drift away from the boards"))
    if rules.after_pass is AfterPass.SAME_DEALER:
        problems.append(
            _("after a passed deal the same dealer deals again, so the seats would no longer take the boards' hands")
        )
    if rules.doubling is not Doubling.NONE:
        problems.append(
            _("a deal after a passed one counts double, so the same board would score differently at other tables")
        )
    if rules.tie_break is TieBreak.EXTRA_DEAL:
        problems.append(_("a tied session is decided by an extra deal, and there is no board for it"))
    return problems


def _rule_set_problem(competition: Any) -> str:
    """The competition's rule set as duplicate play judges it: "" when it fits (or is no rule set at all)."""
    try:
        rules = competition.rule_set.engine_rules()
    except (ObjectDoesNotExist, GameError):
        return ""  # no rule set yet, or one the engine refuses: the rule set's own check says why
    return unfit_rules_message(rules)


def edited_rules_problem(rule_set: Any, rules: RuleSet) -> str:
    """A rule set edited in place (``RuleSet.clean``) while a duplicate competition plays under it: "" when the
    new rules still fit duplicate play (or no duplicate competition uses it)."""
    if rule_set.pk is None or not rule_set.competitions.filter(duplicate=True).exists():
        return ""
    return unfit_rules_message(rules)


def unfit_rules_message(rules: RuleSet) -> str:
    """Why ``rules`` do not fit duplicate play, as one sentence; "" when they do."""
    problems = rules_problems(rules)
    if not problems:
        return ""
    return _(
        "These rules do not fit duplicate play: %(problems)s. Choose rules where a passed deal counts and passes "
        "the deal on, without doubling or an extra deal (iwwa does), or untick “duplicate”."
    ) % {"problems": "; ".join(problems)}
