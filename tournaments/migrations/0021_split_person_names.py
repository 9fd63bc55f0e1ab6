"""Split the stored person names into family and given name (issue 21, item 3).

A player linked to an account whose name was made from the account's names ("Ubul Új": given
name first, ``User.get_full_name``) takes the account's last name as family name and first
name as given name. Every other name is read in Hungarian order, family name first (the order
the desk and the imports used: "Kovács Anna"); a single word is a family name alone. The
stored one-string name becomes family first ("Új Ubul"). An individual entry named after its
one player copies the parts. Teams and entries with a name of their own keep it.
Reverse: the parts are emptied (the stored strings stay family first).
"""

from __future__ import annotations

import unicodedata

from django.db import migrations


def _split(text: str) -> tuple[str, str]:
    words = (text or "").split()
    if len(words) < 2:
        return (" ".join(words), "")
    return (words[0], " ".join(words[1:]))


def _stored(family: str, given: str) -> str:
    return " ".join(p for p in (family, given) if p)


def _key(text: str) -> str:  # frozen copy of tournaments.domain.names.normalise_name
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())[:240]


def split_names(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    Entry = apps.get_model("tournaments", "Entry")
    EntryMember = apps.get_model("tournaments", "EntryMember")
    old_names = {}
    players = list(Player.objects.select_related("user"))
    for p in players:
        old_names[p.pk] = p.display_name
        user = p.user
        first = (getattr(user, "first_name", "") or "").strip()
        last = (getattr(user, "last_name", "") or "").strip()
        western = " ".join(x for x in (first, last) if x)
        if user is not None and last and " ".join(p.display_name.split()) == western:
            p.family_name, p.given_name = last, first
        else:
            p.family_name, p.given_name = _split(p.display_name)
        p.display_name = _stored(p.family_name, p.given_name) or p.display_name
        p.name_key = _key(p.display_name)
    Player.objects.bulk_update(
        players, ["family_name", "given_name", "display_name", "name_key"], batch_size=500
    )
    by_pk = {p.pk: p for p in players}
    members = EntryMember.objects.filter(entry__tournament__kind="individual", seat="A")
    entries = []
    for m in members.select_related("entry"):
        entry, player = m.entry, by_pk.get(m.player_id)
        if player is None or entry.name != old_names[player.pk]:
            continue
        entry.family_name, entry.given_name = player.family_name, player.given_name
        entry.name = player.display_name
        entry.name_key = _key(entry.name)
        entries.append(entry)
    Entry.objects.bulk_update(
        entries, ["family_name", "given_name", "name", "name_key"], batch_size=500
    )


def clear_parts(apps, schema_editor):
    for model in ("Player", "Entry"):
        apps.get_model("tournaments", model).objects.update(family_name="", given_name="")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0020_person_name_parts")]

    operations = [migrations.RunPython(split_names, clear_parts)]
