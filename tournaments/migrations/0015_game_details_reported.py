from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_missed_rounds_and_late_entry_action"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="details_reported",
            field=models.BooleanField(default=True, verbose_name="details reported"),
        ),
    ]
