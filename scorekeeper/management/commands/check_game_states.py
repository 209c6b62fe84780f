from django.core.management.base import BaseCommand, CommandError

from scorekeeper import play
from scorekeeper.models import Game


class Command(BaseCommand):
    help = (
        "Work every game's state and its seats' tallies out again from its rounds and compare "
        "them with what is stored; report each game that differs (--fix stores the worked-out "
        "ones)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="store the worked-out state")

    def handle(self, *args, fix, **options):
        differ = []
        games = Game.objects.select_related("club").with_seats().order_by("created")
        for game in games.iterator(chunk_size=200):
            if play.state_differs(game) or play.tallies_differ(game):
                differ.append(game)
                self.stdout.write(f"{game.id}: the stored state or tallies differ from its rounds")
                if fix:
                    play.rederive(game)
        if differ and not fix:
            raise CommandError(f"{len(differ)} of {games.count()} games differ.")
        self.stdout.write(f"{games.count()} games checked; {len(differ)} differed.")
