import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup import import_club
from scorekeeper.rules.errors import InputError


class Command(BaseCommand):
    help = "Restore a club from a file written by export_club (all of it, or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            club = import_club(data)
        except InputError as refusal:  # one line, naming where in the file
            raise CommandError(f"Not imported: {refusal.field}: {refusal.message}.") from None
        except (OSError, ValueError, RecursionError) as error:
            raise CommandError(f"Could not read {file}: {error}") from None
        games = club.games.count()
        self.stdout.write(f"Imported {club.name}: {club.players.count()} players, {games} games.")
