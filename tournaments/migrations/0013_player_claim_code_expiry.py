# Claim codes expire: existing unused codes get the configured lifetime from now.

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def expire_existing_codes(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    expires = timezone.now() + settings.HKK_CLAIM_CODE_LIFETIME
    Player.objects.exclude(claim_code="").update(claim_code_expires_at=expires)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_tournament_policy_choices_from_registry'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='claim_code_expires_at',
            field=models.DateTimeField(blank=True, help_text='After this moment the claim code is refused; the organiser makes a new one.', null=True, verbose_name='claim code expires at'),
        ),
        migrations.RunPython(expire_existing_codes, migrations.RunPython.noop),
    ]
