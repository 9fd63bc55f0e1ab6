"""The catalogue version: one number that grows on every catalogue change.

Every save or delete of a catalogue row (games, editions, cards, ban lists and their entries,
formats, and their many-to-many links) bumps :class:`CatalogueVersion` through the signal
receivers below; bulk loaders bump it themselves. Readers cache the card index and format specs
against it (``decks.selectors.cache``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from decks.models.catalogue import Card, Edition, Game
from decks.models.formats import BanList, BanListEntry, Format


class CatalogueVersion(models.Model):
    """Singleton row (pk 1) whose ``version`` grows on every catalogue change; readers cache
    the card index and format specs against it (``decks.selectors.cache``)."""

    version = models.PositiveBigIntegerField(_("version"), default=0)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("catalogue version")
        verbose_name_plural = _("catalogue versions")

    def __str__(self) -> str:
        return str(self.version)

    @classmethod
    def bump(cls) -> None:
        """Increase the version (creating the row if needed). Safe inside any transaction."""
        now = timezone.now()
        updated = cls.objects.filter(pk=1).update(version=F("version") + 1, changed_at=now)
        if not updated:
            cls.objects.get_or_create(pk=1, defaults={"version": 1, "changed_at": now})

    @classmethod
    def current(cls) -> int:
        """The current version number (0 when nothing was ever loaded)."""
        return cls.objects.filter(pk=1).values_list("version", flat=True).first() or 0

    @classmethod
    def token(cls) -> tuple[int, object]:
        """``(version, changed_at)``: changes on every bump, also after a rolled-back
        transaction reused a version number (one cheap query)."""
        row = cls.objects.filter(pk=1).values_list("version", "changed_at").first()
        return row or (0, None)


_VERSIONED = (
    Game,
    Edition,
    Card,
    BanList,
    BanListEntry,
    Format,
    Format.ban_lists.through,  # saved directly by the admin inline
    Card.editions.through,
)


@receiver(post_save)
@receiver(post_delete)
def _catalogue_changed(sender, **kwargs) -> None:
    if sender in _VERSIONED and not kwargs.get("raw"):
        CatalogueVersion.bump()


@receiver(m2m_changed, sender=Format.ban_lists.through)
@receiver(m2m_changed, sender=Card.editions.through)
def _catalogue_m2m_changed(sender, action, **kwargs) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        CatalogueVersion.bump()
