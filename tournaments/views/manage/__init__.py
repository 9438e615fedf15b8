"""The organiser's pages under /manage/: ``competitions`` (the dashboard, settings, closing a season, and the
shared checks ``managed_competition`` and ``managed_round``), ``players`` and ``rounds``."""
