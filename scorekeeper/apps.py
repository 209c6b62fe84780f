from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Knock"

    def ready(self) -> None:
        # The rules engine says its sentences through Django's translation, which follows the
        # language LocaleMiddleware chose for each request.
        from django.utils import translation

        from .rules import words

        words.install(translation)
