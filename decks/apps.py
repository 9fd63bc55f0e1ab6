from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    """The ``decks`` app: card catalogue, formats, ban lists, deck validation and the HKK game-start
    calculator.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"
    verbose_name = _("Decks")

    def ready(self) -> None:
        """Register the decks Celery tasks in every process (web, worker, shell) and the system
        check of the deck sections (``decks.checks``)."""
        from django.core import checks

        from decks import tasks  # noqa: F401  (imported for its task registrations)
        from decks.checks import deck_section_drift

        checks.register(deck_section_drift)
