"""Plain SQL for the few statements every tap at a table runs.

Building these statements with the ORM cost more than running them: reading a game with its
club through ``raw()`` took 0.42 ms against 0.20 ms here, and the UPDATE that records a round
0.44 ms against 0.08 ms (SQLite, in-process). Values still go in and come out as the ORM
converts them, by the fields' own methods, so a model's fields stay the one description of its
columns."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

# The converters of each (model, columns) read, per connection: working them out for every row
# cost half as much again as the read itself. Each thread has its own connection.
_converters: WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, list[tuple[list[Converter], Any]]]]
_converters = WeakKeyDictionary()
_lock = threading.Lock()


def quote(name: str, using: str = "default") -> str:
    return connections[using].ops.quote_name(name)


def field(model: type[Model], name: str) -> Field:
    """The concrete field ``name`` (or ``attname``: ``game_id``) of ``model``."""
    found = model._meta.get_field(name)
    assert isinstance(found, Field) and found.concrete, f"{model.__name__}.{name} has a column"
    return found


def column(field: Field, using: str = "default") -> str:
    assert field.column is not None, f"{field} has a column"
    return quote(field.column, using)


@lru_cache(maxsize=64)
def columns(table: str, fields: tuple[Field, ...], using: str = "default") -> str:
    """``t."col", t."col2"``: the columns of ``fields`` of the table named ``table`` in FROM."""
    return ", ".join(f"{table}.{column(one, using)}" for one in fields)


def from_row[M: Model](model: type[M], fields: Sequence[Field], values: Sequence[Any],
             using: str = "default") -> M:  # fmt: skip
    """An instance of ``model`` from the values of its ``fields`` as the database gave them,
    converted as a query through the ORM would have converted them (the others deferred)."""
    connection = connections[using]
    key = (model, tuple(fields))
    steps = _converters.get(connection, {}).get(key)
    if steps is None:
        steps = []
        for one in fields:
            col = one.get_col(model._meta.db_table)
            steps.append((connection.ops.get_db_converters(col)
                          + col.get_db_converters(connection), col))  # fmt: skip
        with _lock:
            _converters.setdefault(connection, {})[key] = steps
    converted = []
    for value, (converters, col) in zip(values, steps, strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(using, [one.attname for one in fields], converted)


# A statement and its parameters, built here and run by ``run`` or ``all_or_nothing``.
Statement = tuple[str, list[Any]]


def run(statement: Statement, using: str = "default") -> int:
    """Run one statement; how many rows it changed."""
    with connections[using].cursor() as cursor:
        cursor.execute(*statement)
        return cursor.rowcount


def insert(model: type[Model], values: Mapping[str, Any], using: str = "default") -> Statement:
    """``INSERT`` one row of ``model``: ``values`` by field (``attname``: ``game_id``), every
    other field its default, each prepared as ``save()`` prepares it. The new row's id is not
    read back: for rows that nothing reads again in the same request."""
    connection = connections[using]
    sql, fields = _insert_sql(model, using)
    params = [
        one.get_db_prep_save(
            values[one.attname] if one.attname in values else one.get_default(), connection
        )
        for one in fields
    ]
    return sql, params


@lru_cache(maxsize=16)
def _insert_sql(model: type[Model], using: str) -> tuple[str, list[Field]]:
    meta = model._meta
    fields = [one for one in meta.concrete_fields if one is not meta.auto_field]
    sql = (
        f"INSERT INTO {quote(meta.db_table, using)} "
        f"({', '.join(column(one, using) for one in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    return sql, fields


def update(model: type[Model], where: Mapping[str, Any], values: Mapping[str, Any] | None = None,
           add: Mapping[str, int] | None = None, using: str = "default") -> Statement:  # fmt: skip
    """``UPDATE`` the rows of ``model`` whose fields equal ``where``: set ``values`` (by field
    name, prepared for the database as ``save()`` prepares them) and add ``add`` to counters
    (``F(name) + n``, in the database)."""
    connection = connections[using]
    values, add = values or {}, add or {}
    sql, sets, matches = _update_sql(model, tuple(where), tuple(values), tuple(add), using)
    params = [one.get_db_prep_save(value, connection)
              for one, value in zip(sets, values.values(), strict=True)]  # fmt: skip
    params += list(add.values())
    params += [one.get_db_prep_value(value, connection)
               for one, value in zip(matches, where.values(), strict=True)]  # fmt: skip
    return sql, params


@lru_cache(maxsize=64)
def _update_sql(model: type[Model], where: tuple[str, ...], values: tuple[str, ...],
                add: tuple[str, ...], using: str) -> tuple[str, list[Field], list[Field]]:  # fmt: skip
    sets = [field(model, name) for name in values]
    adds = [column(field(model, name), using) for name in add]
    matches = [field(model, name) for name in where]
    assignments = [f"{column(one, using)} = %s" for one in sets]
    assignments += [f"{name} = {name} + %s" for name in adds]
    sql = (
        f"UPDATE {quote(model._meta.db_table, using)} SET {', '.join(assignments)} WHERE "
        + " AND ".join(f"{column(one, using)} = %s" for one in matches)
    )
    return sql, sets, matches


def only_if(first: Statement, updates: Sequence[Statement], insert: tuple[type[Model], Statement],
            using: str = "default") -> Statement:  # fmt: skip
    """One PostgreSQL statement that runs the UPDATE ``first``, then ``updates`` and the INSERT
    ``insert`` (of a row of its model) only if ``first`` changed a row: a data-modifying WITH,
    one round trip instead of one per statement and two for the transaction around them. Its
    row count is the INSERT's: 1 if ``first`` changed a row, 0 if not."""
    model, (_sql, insert_params) = insert
    parts = [f"moved AS ({first[0]} RETURNING 1)"]
    params = list(first[1])
    for n, (sql, values) in enumerate(updates):
        parts.append(f"then{n} AS ({sql} AND EXISTS (SELECT 1 FROM moved))")
        params += values
    sql = f"WITH {', '.join(parts)} {_insert_select(model, using)} FROM moved"
    return sql, [*params, *insert_params]


@lru_cache(maxsize=16)
def _insert_select(model: type[Model], using: str) -> str:
    """``INSERT INTO t (…) SELECT %s::type, …``: ``insert``'s statement with a SELECT for its
    VALUES. In INSERT … SELECT a parameter is not typed by its column, as in VALUES: each says
    its own (a None for a JSON column would be text)."""
    sql, fields = _insert_sql(model, using)
    typed = ", ".join(f"%s::{one.db_type(connections[using])}" for one in fields)
    return f"{sql[: sql.index(' VALUES (')]} SELECT {typed}"
