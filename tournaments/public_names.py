"""Public names are unambiguous: no two players show the same name on the public pages.

A player's public name is the display name they chose or, without one, "First L." (``Player.public_name``).
Names are compared as people read them: case and spacing aside (``name_key``). ``Player.clean`` (which the admin,
the organisers' forms, the imports and the API's display-name serializers all pass) refuses a display name that is
another player's public name, and gives a player whose default name is taken a longer one ("Jan Pe.", then
"Jan Peeters", then "Jan Peeters (2)") as their display name. So the list pages keep reading a stored name: no
query per row.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

if TYPE_CHECKING:
    from tournaments.models import Player

DEFAULT = re.compile(r"(?P<first>.+) (?P<initial>\S)\.")  # "Jan P.": how a default name looks


def name_key(name: str) -> str:
    """A name as people read it: case and runs of spaces do not tell two names apart."""
    return " ".join(name.split()).casefold()


def sort_key(name: str) -> str:
    """A name as a list sorts it for people: case, spacing and accents aside ("Émile" among the E's)."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_named(player: Player, first_name: str, last_name: str) -> bool:
    """Whether ``player``'s full name is this one, compared as ``name_key`` compares: the walk-ins, the list import
    and the archive import all ask whether a registration or a federation id belongs to the person of this name."""
    return (name_key(player.first_name), name_key(player.last_name)) == (name_key(first_name), name_key(last_name))


def _others(player: Player) -> QuerySet[Player]:
    """Every other player: not ``player``, nor the same person arriving again (the same federation id)."""
    from tournaments.models import Player

    others = Player.objects.all()
    if player.pk is not None:
        others = others.exclude(pk=player.pk)
    if player.federation_id:
        others = others.exclude(federation_id=player.federation_id)
    return others


def taken(name: str, player: Player) -> bool:
    """Whether ``name`` is another player's public name: the display name they chose, or their default one."""
    spaced = " ".join(name.split())
    if not spaced:
        return False
    others = _others(player)
    shown_as_default = Q(display_name="")
    default = DEFAULT.fullmatch(spaced)
    if default:
        # "Jan P." is the default name of every Jan whose last name starts with P and who chose no name
        same_default = Q(first_name__iexact=default["first"], last_name__istartswith=default["initial"])
    else:
        same_default = Q(first_name__iexact=spaced, last_name="")
    candidates = others.filter(Q(display_name__iexact=spaced) | (shown_as_default & same_default))
    return any(name_key(other.public_name) == name_key(spaced) for other in candidates.only(*_NAME_FIELDS))


_NAME_FIELDS = ("first_name", "last_name", "display_name")


def _longer_names(player: Player) -> Iterator[str]:
    first, last = player.first_name.strip(), player.last_name.strip()
    for length in range(2, len(last)):
        yield f"{first} {last[:length]}."
    full = f"{first} {last}".strip()
    yield full
    for number in range(2, 10_000):
        yield f"{full} ({number})"


def unambiguous_default(player: Player) -> str:
    """For a player who chose no name: "" when their default name ("Jan P.") is theirs alone, else the first
    longer one nobody shows, to store as their display name."""
    if not taken(player.public_name, player):
        return ""
    limit = player._meta.get_field("display_name").max_length or 80
    for name in _longer_names(player):
        if len(name) <= limit and not taken(name, player):
            return name
    return f"#{player.pk}"  # 10 000 namesakes: the id is unambiguous
