from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """The ``tournaments`` app: Swiss tournaments with registration, deck lists, rounds, results,
    standings, staff roles, result reports and deck checks.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Register the Celery tasks in every process (web, worker, shell), so
        ``tournaments.services.jobs`` can enqueue them by name, and the system check that
        fails at start-up when the registries and the stored data drift apart
        (``tournaments.checks``), and the receivers that keep the shared public state current
        (``tournaments.services.public_state``)."""
        from django.core import checks

        from tournaments import tasks  # noqa: F401  (imported for its task registrations)
        from tournaments.checks import registry_drift
        from tournaments.services.public_state import connect_signals

        checks.register(registry_drift, checks.Tags.models)
        connect_signals()
