"""The organiser's PBN upload: a text file of boards, read here, judged by the service."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

PBN_MAX_BYTES = 512 * 1024  # 24 boards take a few kB; a machine's file with auctions and play stays far below


class PbnUploadForm(forms.Form):
    file = forms.FileField(
        label=_("PBN file"),
        help_text=_(
            'Boards 1 to N of this round, each with [Board], [Deal] and [TurnedCard "…"] (the dealer\'s last card, '
            "dealt face up)."
        ),
    )

    def clean_file(self) -> str:
        """The file's text: UTF-8 (a byte order mark allowed) or, as PBN 2.1 says, ISO 8859-1."""
        upload = self.cleaned_data["file"]
        if upload.size > PBN_MAX_BYTES:
            raise ValidationError(_("The file is too large (at most 512 kB)."))
        content = upload.read()
        if b"\x00" in content:
            raise ValidationError(_("This is not a text file: a PBN file is text, one tag a line."))
        try:
            return str(content.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return str(content.decode("latin-1"))
