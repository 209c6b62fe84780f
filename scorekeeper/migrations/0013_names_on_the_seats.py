"""A game's stored state names players by seat: the names stay on the seats, so a rename changes
one row. The latest round's story is told from the state before it and the round ("last"),
never stored in words; the result kept in words goes, and with it the table of kept pages."""

from django.db import migrations


def _by_seat(data, names):
    """An old state (names, winner and tie by name) by seat, with no names."""
    data = dict(data)
    data.pop("names", None)
    winner = data.get("winner")
    data["winner"] = names.index(winner) if isinstance(winner, str) else winner
    data["tie"] = [names.index(n) if isinstance(n, str) else n for n in data.get("tie") or []]
    return data


def _by_name(data, names):
    data = dict(data)
    winner = data.get("winner")
    data["names"] = list(names)
    data["winner"] = names[winner] if isinstance(winner, int) else winner
    data["tie"] = [names[n] if isinstance(n, int) else n for n in data.get("tie") or []]
    return data


def _last(game, names):
    """The state before the latest round in play, and the round, worked out from the rounds
    (for a game stored before "last" was kept)."""
    from scorekeeper.rules.game import RoundInput, advance, replay, start
    from scorekeeper.rules.ruleset import stored_rules

    rules = stored_rules(game.rules_data, game.rules_version)
    rounds = [
        RoundInput(
            r.ending, r.knocker, tuple(r.shown_by),
            None if r.lowest is None else tuple(r.lowest),
            None if r.hands is None else {int(k): v for k, v in r.hands.items()},
            r.choice or None,
            None if r.losses is None else {int(k): v for k, v in r.losses.items()},
        )
        for r in game.rounds.filter(state="active").order_by("number")
    ]
    _state, steps = replay(rules, names, game.first_dealer, rounds)
    done = [step for step in steps if step.result.result != "table_decides"]
    if not done:
        return None
    before = start(rules, names, game.first_dealer)
    for step in done[:-1]:
        before = advance(before, step)
    return {"before": _by_seat(before.as_data(), names), "round": done[-1].round.as_data()}


def by_seat(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.filter(state_data__isnull=False).iterator(chunk_size=200):
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = _by_seat(game.state_data, names)
        told = data.pop("told", None)
        last = data.get("last")
        if last is not None:
            data["last"] = {**last, "before": _by_seat(last["before"], names)}
        elif told is not None or game.round_count:
            found = _last(game, names)
            if found is not None:
                data["last"] = found
        Game.objects.filter(pk=game.pk).update(state_data=data)
    schema_editor.execute("DROP TABLE IF EXISTS knock_kept_pages")


def by_name(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.filter(state_data__isnull=False).iterator(chunk_size=200):
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        data = _by_name(game.state_data, names)
        data["told"] = {}
        if data.get("last"):
            data["last"] = {**data["last"], "before": _by_name(data["last"]["before"], names)}
        Game.objects.filter(pk=game.pk).update(state_data=data)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0012_kept_pages")]

    operations = [
        migrations.RunPython(by_seat, by_name),
        migrations.AlterModelOptions(name="club", options={"ordering": ["-created"]}),
        migrations.RemoveField(model_name="game", name="result_text"),
    ]
