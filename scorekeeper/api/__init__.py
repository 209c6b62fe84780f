"""The JSON API, version 1 (django-ninja)."""

from .base import api

__all__ = ["api"]
