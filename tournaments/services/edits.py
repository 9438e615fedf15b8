"""Saving a settings page over what someone else saved meanwhile: nothing they changed is overwritten unseen.

A page sends every setting it shows, changed or not. Two organisers with the same page open would each write
back the other's settings as they first saw them: the second to save would undo the first's change without
either knowing. So the page also carries what it showed (a digest of each setting, ``shown``), and the save
compares each setting three ways, under the row's lock:

- nobody else changed it since the page was shown: what the page sends is saved;
- someone else changed it, and this page left it as shown: their value stays;
- both changed it, differently: nothing is saved and the setting is named (``ChangedMeanwhile``), with what
  the page should carry from now on, so that saving again keeps this page's value on purpose.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext

from config.untrusted import read_json

Digests = dict[str, str]


def digest(value: Any) -> str:
    """A setting's value in 16 hex digits: equal values, equal digests (dicts whatever their key order)."""
    text = json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests_of(values: Mapping[str, Any]) -> Digests:
    """What a page shows, as it carries it: the digest of every setting."""
    return {name: digest(value) for name, value in values.items()}


def carried(digests: Digests) -> str:
    """Digests as a form's hidden field holds them."""
    return json.dumps(digests, separators=(",", ":"))


def read_carried(text: str | None) -> Digests | None:
    """The digests a page sent back; None for none or for anything else (a page from before, a script)."""
    try:
        value = read_json(text or "")
    except ValueError:  # not JSON, or nested deeper than digests are
        return None
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return None
    return {str(k): v for k, v in value.items()}


class ChangedMeanwhile(ValidationError):
    """Both this page and someone else changed these settings: nothing saved. ``shown`` is what the page
    carries from now on (the stored value of each of them as seen), so saving again keeps the page's."""

    def __init__(self, settings: list[str], shown: Digests):
        message = gettext(
            "Another organiser saved a different value here while you were editing: save again to keep yours, "
            "or reload the page to see theirs."
        )
        super().__init__({name: [message] for name in settings})
        self.settings = settings
        self.shown = shown


def merged(page: Digests | None, stored: Mapping[str, Any], sent: Mapping[str, Any]) -> dict[str, Any]:
    """The values to save: ``sent``, except where only someone else changed a setting since the page showed it.

    Raises ``ChangedMeanwhile`` when both changed one. Without digests (``page`` None) ``sent`` is saved as is.
    """
    if page is None:
        return dict(sent)
    values: dict[str, Any] = {}
    clashes: list[str] = []
    for name, value in sent.items():
        was, now, mine = page.get(name), digest(stored[name]), digest(value)
        if was is None or was == now or mine == now:
            values[name] = value
        elif mine == was:  # only someone else changed it: theirs stays
            values[name] = stored[name]
        else:
            clashes.append(name)
    if clashes:
        raise ChangedMeanwhile(clashes, {**page, **{name: digest(stored[name]) for name in clashes}})
    return values
