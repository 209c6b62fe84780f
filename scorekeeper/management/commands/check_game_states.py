from django.core.management.base import BaseCommand, CommandError

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
        games = Game.objects.select_related("club").order_by("created")
        for game in games.iterator(chunk_size=200):
            worked_out, steps = game.steps()
            stored = dict(game.state_data or {})
            # The state, not its words: they were told in the languages of their time. What
            # the words are told from (the state before the latest round, and the round) is
            # compared, where it is kept.
            stored.pop("told", None)
            last = stored.pop("last", None)
            differs = stored != worked_out.as_data()
            if last is not None:
                differs = differs or last != game.told_last(steps).get("last")
            if differs or game.tallies_differ():
                differ.append(game)
                self.stdout.write(f"{game.id}: the stored state or tallies differ from its rounds")
                if fix:
                    game.rederive()
        if differ and not fix:
            raise CommandError(f"{len(differ)} of {games.count()} games differ.")
        self.stdout.write(f"{games.count()} games checked; {len(differ)} differed.")
