"""The operator's view of the data: clubs with their players, games with their seats and rounds.

Everything a table plays goes through the rules engine, so games and rounds are read-only here
(an edit would bypass it); an operator can rename a club, retire a player and remove a club or a
game whole. Players and rounds have no pages of their own: they are seen, and removed, with their
club or game. No key is ever shown: the database holds digests only.
"""

from django.contrib import admin
from django.db.models import Count

from .models import Club, Game, GameSeat, Player, Round


class PlayerInline(admin.TabularInline):
    model = Player
    fields = ("name", "retired", "created")
    readonly_fields = ("name", "created")
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    # A club's page needs its secret key, which only digests of are stored: no "view on site".
    view_on_site = False
    ordering = ("-created",)
    list_display = ("name", "created", "player_count", "game_count")
    search_fields = ("name", "id")
    fields = ("id", "name", "created", "view_generation")
    readonly_fields = ("id", "created", "view_generation")
    inlines = [PlayerInline]

    def has_add_permission(self, request):
        return False  # a club is started from its page, which shows its secret link once

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                players_n=Count("players", distinct=True), games_n=Count("games", distinct=True)
            )
        )

    @admin.display(description="players", ordering="players_n")
    def player_count(self, club):
        return club.players_n

    @admin.display(description="games", ordering="games_n")
    def game_count(self, club):
        return club.games_n


class SeatInline(admin.TabularInline):
    model = GameSeat
    fields = ("position", "player")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("number", "state", "ending", "knocker", "shown_by", "lowest", "choice", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    view_on_site = False  # a game's page needs its club's key too
    ordering = ("-created",)
    list_display = ("created", "club", "preset", "round_count", "finished", "result")
    list_filter = ("preset", "finished")
    search_fields = ("club__name", "id")
    list_select_related = ("club",)
    fields = (
        "id",
        "club",
        "preset",
        "created",
        "version",
        "round_count",
        "finished",
        "result",
        "first_dealer",
        "rules_data",
        "readings",
    )
    readonly_fields = fields
    inlines = [SeatInline, RoundInline]

    def get_queryset(self, request):
        return super().get_queryset(request).with_seats()

    @admin.display(description="result")
    def result(self, game):
        return game.result_words

    def has_add_permission(self, request):
        return False  # games start at the table

    def has_change_permission(self, request, obj=None):
        return False  # an edit here would bypass the rules engine: undo and edit at the table
