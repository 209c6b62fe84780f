"""A night: the games a table played back to back ("Play again"), counted together.

A tournament, a night of several tables drawn and scored at once, is in ``models.tournaments``."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from .clubs import Club


class Night(models.Model):
    """The games a table played back to back, one "Play again" after another."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    name = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name or f"night of {self.created:%Y-%m-%d}"
