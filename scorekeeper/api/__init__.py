"""The JSON API, version 1 (django-ninja).

May import every room below the doors (``play``, ``tournaments``, ``reports``, ``models``,
``lib``, ``rules``) and, of the pages, only their key resolver (``web.access``); mounted in
``config/urls.py``.
"""

from .base import api

__all__ = ["api"]
