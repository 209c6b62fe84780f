import json
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup import export_club
from scorekeeper.models import Club


class Command(BaseCommand):
    help = (
        "Write a club (players, games, every round) as JSON to standard output. The club's "
        "secret key is read from KNOCK_CLUB_KEY, or from standard input: never from the "
        "command line, where the shell's history and ps would keep it."
    )

    def handle(self, *args, **options):
        key = os.environ.get("KNOCK_CLUB_KEY", "").strip()
        if not key:
            if sys.stdin.isatty():
                self.stderr.write("The club's secret key (from its link): ", ending="")
                self.stderr.flush()
            key = sys.stdin.readline().strip()
        if not key:
            raise CommandError("Give the club's secret key in KNOCK_CLUB_KEY or on standard input.")
        club = Club.objects.with_key(key)
        if club is None:
            raise CommandError("No club has that key.")
        self.stdout.write(json.dumps(export_club(club), indent=1, ensure_ascii=False))
