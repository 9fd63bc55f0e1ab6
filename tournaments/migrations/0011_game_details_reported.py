from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_action_log_results_restored"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="details_reported",
            field=models.BooleanField(default=True, verbose_name="details reported"),
        ),
    ]
