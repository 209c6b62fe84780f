"""Knock's addresses, grouped by what they start with: Django tries a group's patterns only when
its prefix matches, so the table's own requests (the poll, a tap) are found after a handful of
tries instead of forty. A club's pages carry its secret key (``c/``) or its view key (``v/``)."""

from django.urls import URLPattern, URLResolver, include, path, re_path

from .views import app, backup, clubs, games, nights, printing, referee, tournaments

# A game's pages under its club's secret link: c/<key>/g/<game_id>/...
game_patterns: list[URLPattern | URLResolver] = [
    path("", games.game, name="game"),
    path("version", games.game_version, name="game-version"),
    path("events", games.game_events, name="game-events"),
    path("record", games.record, name="record"),
    path("undo", games.undo, name="undo"),
    path("mode", games.game_mode, name="game-mode"),
    path("invite", games.invite, name="invite"),
    path("name", games.name_game, name="name-game"),
    path("rules", printing.game_rules, name="game-rules"),
    path("rules.pdf", printing.game_rules, {"pdf": True}, name="game-rules-pdf"),
    path("sheet", printing.game_sheet, name="game-sheet"),
    path("sheet.pdf", printing.game_sheet, {"pdf": True}, name="game-sheet-pdf"),
    re_path(r"^(?P<action>abandon|resume|delete|restore)$", games.set_aside, name="set-aside"),
    path("referee", referee.game_referee, name="game-referee"),
    path("rounds/<int:number>/edit", games.edit_round, name="edit-round"),
    path("log", games.round_log, name="round-log"),
    path("again", games.play_again, name="play-again"),
    path("again/next", games.next_game, name="next-game"),
]

# A club's pages under its secret link: c/<key>/...
club_patterns: list[URLPattern | URLResolver] = [
    path("g/<uuid:game_id>/", include(game_patterns)),
    path("", clubs.club, name="club"),
    path("players/add", clubs.add_player, name="add-player"),
    path("players/<int:player_id>/rename", clubs.rename_player, name="rename-player"),
    path("players/<int:player_id>/mark", clubs.mark_player, name="mark-player"),
    path("players/<int:player_id>/retire", clubs.retire_player, name="retire-player"),
    path("games/new", games.new_game, name="new-game"),
    path("stats", clubs.stats, name="stats"),
    path("standings", clubs.club_standings, name="standings"),
    path("seasons/new", clubs.add_season, name="add-season"),
    path("seasons/<int:season_id>/delete", clubs.delete_season, name="delete-season"),
    path("players/<int:player_id>/stats", clubs.player_stats, name="player-stats"),
    path("replace-link", clubs.replace_link, name="replace-link"),
    path("export.json", backup.export_club, name="export-club"),
    path("games.csv", backup.export_games_csv, name="export-games-csv"),
    path("nights/<int:night_id>/name", nights.name_night, name="name-night"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new", tournaments.new_tournament, name="new-tournament"),
    path("tournaments/<uuid:tournament_id>/", tournaments.tournament, name="tournament"),
    re_path(
        rf"^tournaments/(?P<tournament_id>[0-9a-f-]{{36}})/(?P<action>{'|'.join(tournaments.ACTIONS)})$",
        tournaments.tournament_action,
        name="tournament-action",
    ),
    path("tournaments/<uuid:tournament_id>/cards", tournaments.table_cards, name="table-cards"),
    path(
        "tournaments/<uuid:tournament_id>/cards.pdf",
        tournaments.table_cards,
        {"pdf": True},
        name="table-cards-pdf",
    ),
    path("tournaments/<uuid:tournament_id>/results.pdf", tournaments.results, name="results-pdf"),
    path(
        "tournaments/<uuid:tournament_id>/results.csv",
        tournaments.results_csv,
        name="results-csv",
    ),
    path(
        "tournaments/<uuid:tournament_id>/rounds.csv",
        tournaments.rounds_csv,
        name="rounds-csv",
    ),
]

# The view link's pages: the same views, opened read-only (access.Link.VIEW_PAGES): v/<key>/...
view_patterns: list[URLPattern | URLResolver] = [
    path("g/<uuid:game_id>/", games.game, name="view-game"),
    path("g/<uuid:game_id>/version", games.game_version, name="view-game-version"),
    path("g/<uuid:game_id>/events", games.game_events, name="view-game-events"),
    path("g/<uuid:game_id>/log", games.round_log, name="view-round-log"),
    path("g/<uuid:game_id>/share.png", games.share_picture, name="view-share-picture"),
    path("", clubs.club, name="view-club"),
    path("stats", clubs.stats, name="view-stats"),
    path("standings", clubs.club_standings, name="view-standings"),
    path("players/<int:player_id>/stats", clubs.player_stats, name="view-player-stats"),
    path("tournaments/", tournaments.tournament_list, name="view-tournaments"),
    path("tournaments/<uuid:tournament_id>/board", tournaments.board, name="tournament-board"),
    path(
        "tournaments/<uuid:tournament_id>/share.png",
        tournaments.tournament_picture,
        name="tournament-picture",
    ),
    path("nights/<int:night_id>/share.png", nights.night_picture, name="night-picture"),
]

urlpatterns = [
    path("c/<str:key>/", include(club_patterns)),
    path("v/<str:view_key>/", include(view_patterns)),
    path("", clubs.home, name="home"),
    path("clubs/new", clubs.create_club, name="create-club"),
    path("referee/", referee.referee, name="referee"),
    path("rules/<str:preset>/", printing.preset_rules, name="preset-rules"),
    path("rules/<str:preset>.pdf", printing.preset_rules, {"pdf": True}, name="preset-rules-pdf"),
    path("sheet/", printing.blank_sheet, name="blank-sheet"),
    path("sheet.pdf", printing.blank_sheet, {"pdf": True}, name="blank-sheet-pdf"),
    path("healthz", clubs.healthz, name="healthz"),
    path("readyz", clubs.readyz, name="readyz"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("engine/<str:version>.json", app.engine_bundle, name="engine-bundle"),
    path("engine/python-<str:version>.zip", app.engine_stdlib, name="engine-stdlib"),
    path("offline", app.offline, name="offline"),
    path("faults", app.phone_fault, name="phone-fault"),
    path("favicon.ico", app.favicon, name="favicon"),
]
