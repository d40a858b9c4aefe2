"""Alembic environment for the storage package. The app passes its own connection (already in a
transaction) through ``config.attributes["connection"]``; the ``alembic`` command line may pass
``-x url=...`` instead. Batch mode makes the same scripts work on SQLite's limited ALTER."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from referee.storage.tables import METADATA

config = context.config
target_metadata = METADATA


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from referee.storage.db import make_engine, resolve

    url = context.get_x_argument(as_dictionary=True).get("url")
    engine = make_engine(resolve(url), pool=False)
    try:
        with engine.connect() as conn:
            conn.execution_options(bezique_write=True)
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


_main()
