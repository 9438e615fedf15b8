"""The model validation every object under a competition shares: locks first, then what belongs together."""

from tournaments.integrity import refuse_mismatch
from tournaments.locks import refuse_if_locked


class Guarded:
    """``clean()`` refuses a change under a lock (``tournaments.locks``: a closed competition, a finalised round)
    and references that do not belong together (``tournaments.integrity``), so every ``full_clean`` (the admin's
    forms, the services that validate) meets both rules. A model without a lock path or pair rule passes."""

    def clean(self) -> None:
        super().clean()  # type: ignore[misc]
        refuse_if_locked(self)  # type: ignore[arg-type]
        refuse_mismatch(self)  # type: ignore[arg-type]
