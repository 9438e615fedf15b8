from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        from tournaments import audit_signals, conditional, former_addresses, live

        audit_signals.connect()
        former_addresses.connect()
        conditional.connect()
        live.connect()
