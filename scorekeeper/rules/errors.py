class InputError(ValueError):
    """Input the rules refuse; ``field`` names where it is wrong (``players[2].cards``)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
