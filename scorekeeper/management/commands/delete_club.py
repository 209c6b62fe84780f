import sys
import uuid

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Club, Round


class Command(BaseCommand):
    help = "Remove a club for good: its players, games and every round. Export it first."

    def add_arguments(self, parser):
        parser.add_argument("club_id", help="the club's id, as list_clubs shows it")
        parser.add_argument("--yes", action="store_true", help="do not ask before removing")

    def handle(self, *args, club_id, yes, **options):
        try:
            club = Club.objects.get(pk=uuid.UUID(club_id))
        except (ValueError, Club.DoesNotExist):
            raise CommandError("No club has that id (list_clubs shows them).") from None
        games = club.games.count()
        rounds = Round.objects.filter(game__club=club).count()
        summary = f"{club.name}: {club.players.count()} players, {games} games, {rounds} rounds"
        if not yes:
            if not sys.stdin.isatty():
                raise CommandError(
                    f"Nothing was removed: without a terminal, add --yes ({summary})."
                )
            if input(f"Remove {summary}? Type yes: ").strip().lower() != "yes":
                raise CommandError("Nothing was removed.")
        club.delete()  # one transaction: the players, the games and their rounds with it
        self.stdout.write(f"Removed {summary}.")
