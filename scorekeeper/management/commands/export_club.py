import json

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup import export_club
from scorekeeper.models import Club


class Command(BaseCommand):
    help = "Write a club (players, games, every round) as JSON to standard output."

    def add_arguments(self, parser):
        parser.add_argument(
            "key",
            help="the club's secret key, from its link (put -- before a key that starts with -)",
        )

    def handle(self, *args, key, **options):
        club = Club.objects.with_key(key)
        if club is None:
            raise CommandError("No club has that key.")
        self.stdout.write(json.dumps(export_club(club), indent=1, ensure_ascii=False))
