"""What the entry page's offline scripts say to the table, in its language (``static/offline/entry.js``).

Counts come as "one"/"other" pairs, since the script picks the form at run time (n ≥ 1 here, where every language
of the site uses "one" for 1 only).
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.punctuation import colon


def _counted(say: Callable[[int], str]) -> dict[str, str]:
    return {"one": say(1), "other": say(2)}


# Each a literal ngettext call: makemessages extracts only those.
def _offline_kept(n: int) -> str:
    return ngettext(
        "Offline: %(n)s deal kept on this device, sent when the connection returns.",
        "Offline: %(n)s deals kept on this device, sent when the connection returns.",
        n,
    )


def _syncing(n: int) -> str:
    return ngettext("Sending %(n)s deal kept on this device…", "Sending %(n)s deals kept on this device…", n)


def _waiting(n: int) -> str:
    return ngettext(
        "%(n)s deal kept on this device is waiting for the server.",
        "%(n)s deals kept on this device are waiting for the server.",
        n,
    )


def offline_words() -> dict[str, object]:
    return {
        "offline": _("Offline: each deal you save is kept on this device and sent when the connection returns."),
        "offline_kept": _counted(_offline_kept),
        "syncing": _counted(_syncing),
        "waiting": _counted(_waiting),
        "conflict": _("Deal %(deal)s was saved differently by someone else meanwhile: choose below which line stays."),
        "refused": _("Deal %(deal)s was refused by the server: correct it or set it aside below."),
        "signed_out": _(
            "This device may not save to this sheet any more: ask the organiser. The deals stay kept here."
        ),
        "kept_title": _("Kept on this device, not saved yet"),
        "settled_offline": _("settled offline"),
        "points_later": _("points when the engine has loaded"),
        "deal": _("Deal %(deal)s"),
        "correction": _("correction of deal %(deal)s"),
        "deal_board": _("Deal %(deal)s, board %(board)s"),
        "correction_board": _("correction of deal %(deal)s, board %(board)s"),
        "total": _("total"),
        "points": _("points"),
        "yours": _("This table's line"),
        "theirs": _("The line on the server"),
        "keep_ours": _("Keep this table's line (it replaces theirs)"),
        "keep_theirs": _("Keep theirs (this table's line is set aside)"),
        "edit": _("Correct it in the form"),
        "set_aside": _("Set it aside"),
        "aside_title": _("Set aside (not on the sheet)"),
        "forget": _("Forget it"),
        "differs": _(
            "Deal %(deal)s: settled offline as %(offline)s, the server settled it as %(server)s. "
            "The server's points count."
        ),
        "dismiss": _("Understood"),
        "refused_here": _("This line does not fit the sheet's rules: check %(fields)s."),
        "colon": colon(),  # after a label, as the language writes it (French: "Déclarants : …")
        "correcting": _("Correcting deal %(deal)s (offline): the line saved for it is replaced."),
        "review_offline": _("Confirming or rejecting the sheet needs the connection."),
    }
