from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        from tournaments import audit_signals, conditional, live

        audit_signals.connect()
        conditional.connect()
        live.connect()
