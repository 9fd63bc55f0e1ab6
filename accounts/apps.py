from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """The ``accounts`` app: sign-up, profile, API tokens and the login rate-limit hooks.

    It has no models of its own: users are ``django.contrib.auth``'s, tokens are
    ``rest_framework.authtoken``'s and failed logins are django-axes'.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from accounts import checks  # noqa: F401 (registers the system checks)
