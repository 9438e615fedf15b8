"""The address names (slugs) a competition had before it was renamed: ``tournaments.former_addresses``."""

from django.db import models
from django.utils import timezone

from tournaments.models.competitions import Competition


class FormerAddress(models.Model):
    """A slug ``competition`` used until ``until``. Links to it, the codes on printed table cards and pages left
    open still lead to the competition, and no other competition takes it while this row exists (it goes with
    the competition, or when the competition takes the name back)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="former_addresses")
    slug = models.SlugField(unique=True)
    until = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.slug} → {self.competition_id}"
