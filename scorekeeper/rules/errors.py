class InputError(ValueError):
    """Input the rules refuse, and where: ``part`` names the field, and ``seat`` the player
    (0, 1, 2… in seat order) when the field is one of a player's. ``field`` is the whole path
    as the JSON API names it: ``players[2].cards``, ``knocker``, ``rules.overrides.lives``."""

    def __init__(
        self,
        message: str,
        field: str,
        seat: int | None = None,
        also: tuple["InputError", ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.part = field
        self.seat = seat
        # Refused by the same check at once, elsewhere (every hand that cannot be held, not
        # only the first): a form says each next to its field.
        self.also = also

    @property
    def field(self) -> str:
        return self.part if self.seat is None else f"players[{self.seat}].{self.part}"

    @field.setter
    def field(self, value: str) -> None:
        self.part, self.seat = value, None
