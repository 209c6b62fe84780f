"""Read-only products of what happened: statistics, a game's summary, the lives chart, the
printed rules card and score sheet.

May import ``models``, ``lib`` and ``rules``; never a verb (``play``) or a door (``web``,
``api``): a report changes nothing.
"""
