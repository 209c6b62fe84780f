from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from scorekeeper.models import BIN_DAYS, Game


class Command(BaseCommand):
    help = (
        f"Remove for good the games that have been in their club's bin for more than {BIN_DAYS} "
        "days (a club's page also does it for its own games when it is opened). Run it daily."
    )

    def handle(self, *args, **options):
        expired = Game.objects.filter(deleted__lt=timezone.now() - timedelta(days=BIN_DAYS))
        _rows, removed = expired.delete()
        games = removed.get(Game._meta.label, 0)
        self.stdout.write(f"Removed {games} games that were in a bin for {BIN_DAYS} days.")
