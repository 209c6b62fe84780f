"""Keep digests of the keys only: a copy of the database must not open any club.

The secret links keep working (their digests were already stored). Each view link becomes the
one derived from the secret key; the old view link is retired, so whoever still uses it is told
it was replaced.
"""

import base64
import hashlib
import hmac

from django.db import migrations, models


def derive_view_keys(apps, schema_editor):
    Club = apps.get_model("scorekeeper", "Club")
    RetiredKey = apps.get_model("scorekeeper", "RetiredKey")
    for club in Club.objects.all():
        mac = hmac.new(club.key.encode("utf-8", "surrogatepass"), b"view:0", "sha256")
        view_key = base64.urlsafe_b64encode(mac.digest()[:24]).decode()
        RetiredKey.objects.create(club=club, kind="view", digest=club.view_key_hash)
        club.view_key_hash = hashlib.sha256(view_key.encode()).hexdigest()
        club.save(update_fields=["view_key_hash"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0002_name_key_room"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="view_generation",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(derive_view_keys, migrations.RunPython.noop),
        migrations.RemoveField(model_name="club", name="key"),
        migrations.RemoveField(model_name="club", name="view_key"),
    ]
