from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        from tournaments import audit_signals, conditional

        audit_signals.connect()
        conditional.connect()
