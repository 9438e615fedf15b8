"""When a competition may be duplicate: asked by ``Competition.clean``, so the settings page, the API, the admin
and every service that validates meet the same rule (the database adds ``competition_duplicate_wiezen_only``).

- Wiezen only: solo whist and Zwicken boards would need their own dealing and checks.
- Chosen before the first round is seated: every round of a duplicate competition has its boards, dealt when it
  was made, and a round without them (or with boards nobody plays) would compare nothing.
- A duplicate competition's deals per session stay as they are once rounds are seated: its rounds' boards were
  dealt for that many deals.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

WIEZEN = "wiezen"


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
    if competition.pk is None:
        return {}
    stored = type(competition).objects.filter(pk=competition.pk).values("duplicate", "deals_per_session").first()
    if stored is None or not competition.rounds.exists():
        return {}
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
