"""The pages: the one key resolver (``access``), forms, views, templates' helpers, urls.

May import every room below the doors (``play``, ``backup``, ``live``, ``reports``, ``models``,
``lib``, ``rules``); never the API, which stands beside it (docs/architecture.md).
"""
