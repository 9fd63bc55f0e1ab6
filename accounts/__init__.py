"""Accounts: sign-up, login, API tokens and profile (see ``accounts.urls``)."""
