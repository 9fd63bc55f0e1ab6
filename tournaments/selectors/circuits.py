"""Reads of circuits shared by the pages and the API: which circuits a user may see, one
circuit for reading or for its owner. docs/rules.md §19 (Circuits, season standings and league
gates)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound, PermissionDenied
from tournaments.models import Circuit


def circuits_visible(*, user: Any) -> QuerySet[Circuit]:
    """Public circuits, and the user's own, newest first."""
    circuits = Circuit.objects.select_related("game", "owner").order_by("-created_at", "id")
    if getattr(user, "is_authenticated", False):
        return circuits.filter(Q(is_public=True) | Q(owner=user))
    return circuits.filter(is_public=True)


def circuit_get_visible(*, circuit_id: int, user: Any) -> Circuit:
    """A circuit the user may see. Raises ``NotFound("circuit_not_found")``."""
    circuit = circuits_visible(user=user).filter(pk=circuit_id).first()
    if circuit is None:
        raise NotFound("circuit_not_found", _("No such circuit."), {"circuit": circuit_id})
    return circuit


def circuit_get_owned(*, circuit_id: int, user: Any) -> Circuit:
    """A circuit the user owns. Raises ``NotFound("circuit_not_found")``,
    ``PermissionDenied("not_circuit_owner")``."""
    circuit = circuit_get_visible(circuit_id=circuit_id, user=user)
    if circuit.owner_id != getattr(user, "pk", None):
        raise PermissionDenied(
            "not_circuit_owner", _("Only the owner of the circuit may do this."), {}
        )
    return circuit
