from django.db import models


class StandingsState(models.Model):
    """Bookkeeping of one competition's standings: what is computed, what is queued.

    ``queued`` is claimed with conditional updates so a burst of entries queues one
    recomputation and two workers never compute the same request twice.
    """

    competition = models.OneToOneField(
        "tournaments.Competition", primary_key=True, on_delete=models.CASCADE, related_name="standings_state"
    )
    queued = models.BooleanField(default=False)
    queued_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    computed_version = models.PositiveBigIntegerField(default=0)
    computations = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"standings of {self.competition_id} (v{self.computed_version})"


class Standing(models.Model):
    """One computed row of a competition's standings; never edited by hand."""

    competition = models.ForeignKey("tournaments.Competition", on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.IntegerField()
    deals_played = models.PositiveIntegerField()
    sessions_played = models.PositiveIntegerField()
    penalty_points = models.PositiveIntegerField(default=0)
    value = models.CharField(max_length=80, default="", help_text="the standings method's value, as shown")
    shared = models.BooleanField(default=False, help_text="level on every tie-break with another player")
    explanation = models.TextField(default="", help_text="how this row was reached, in words")
    computed_at = models.DateTimeField()

    BEST_FIRST = (
        models.Case(models.When(rank=0, then=models.Value(1)), default=models.Value(0)).asc(),
        "rank",
        "-points",
        "player_id",
    )
    """The standings' order: the ranked by rank, then those a league does not rank yet (rank 0, "not ranked":
    too few evenings), most points first, as the season table lists them."""

    class Meta:
        ordering = ["competition", "rank", "player"]
        constraints = [models.UniqueConstraint(fields=["competition", "player"], name="standing_once_per_player")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} {self.points}"


class Rating(models.Model):
    """A player's OpenSkill rating over the deals of confirmed sheets in finalised rounds of competitions whose
    results are public (``scoring.selectors.rated_rounds``); computed, never edited. Its history, a point per
    round played, is the ledger's steps (``scoring.selectors.rating_history``): kept in rows, a new round appends
    rows instead of rewriting a list that grows with every round."""

    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma: the conservative estimate used for ranking")
    deals_rated = models.PositiveIntegerField()
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class Statistics(models.Model):
    """Computed statistics of one player in one competition, or of the competition itself (no player)."""

    competition = models.ForeignKey("tournaments.Competition", on_delete=models.CASCADE, related_name="statistics")
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="statistics"
    )
    data = models.JSONField()
    totals = models.JSONField(default=dict, help_text="the raw counts ``data`` is shown from, updated by delta")
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "statistics"
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="statistics_once_per_player"),
            models.UniqueConstraint(
                fields=["competition"], condition=models.Q(player__isnull=True), name="statistics_once_per_competition"
            ),
        ]


class JobState(models.Model):
    """Bookkeeping of a coalesced background job (ratings, a competition's statistics): queued once, claimed once."""

    key = models.CharField(max_length=80, primary_key=True)
    queued = models.BooleanField(default=False)
    queued_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    runs = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return self.key


class RatedRound(models.Model):
    """The ratings ledger: the rounds the ratings have counted, in the order they were rated.

    ``position`` follows ``scoring.selectors.rated_rounds_in_order`` (the order of ``all_deal_results``), without
    gaps; ``fingerprint`` tells whether the round is still what was rated. A run compares the ledger with the
    rounds to rate now: rounds added at the end are rated from the players' current state; from the first round
    that differs (corrected, reopened, hidden, inserted earlier, deleted) the ratings are replayed from the
    states stored just before it (``RatingStep``).
    """

    position = models.PositiveIntegerField(unique=True)
    round = models.OneToOneField("tournaments.Round", on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)
    label = models.CharField(max_length=300)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.position}. {self.label}"


class RatingStep(models.Model):
    """A player's rating state after a rated round they played (at ``RatedRound.position``): where a replay of
    the later rounds starts from."""

    position = models.PositiveIntegerField()
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    deals = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "position"], name="rating_step_once_per_round")]
        indexes = [models.Index(fields=["position"], name="rating_step_position")]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.position}"


class SheetStatistics(models.Model):
    """One score sheet's contribution to its competition's statistics (raw counts), and what it was computed
    from, so a competition's statistics are updated by the sheets that changed: the old contribution out, the
    new one in."""

    sheet = models.OneToOneField("tournaments.ScoreSheet", primary_key=True, on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)
    contribution = models.JSONField()

    def __str__(self) -> str:
        return f"statistics of sheet {self.sheet_id}"
