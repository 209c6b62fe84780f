from django.core.management.base import BaseCommand
from django.db.models import Count, Max

from scorekeeper.models import Club


class Command(BaseCommand):
    help = "List the clubs on this instance: id, name, players, games, last played. No keys."

    def handle(self, *args, **options):
        clubs = Club.objects.annotate(
            players_n=Count("players", distinct=True),
            games_n=Count("games", distinct=True),
            last=Max("games__rounds__created"),
        ).order_by("created")
        for club in clubs:
            last = club.last.date().isoformat() if club.last else "never"
            self.stdout.write(
                f"{club.id}  {club.created:%Y-%m-%d}  {club.players_n:>3} players  "
                f"{club.games_n:>4} games  last played {last}  {club.name}"
            )
        self.stdout.write(f"{len(clubs)} clubs.")
