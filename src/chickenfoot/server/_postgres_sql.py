"""The SQL of the PostgreSQL store (:mod:`~chickenfoot.server._postgres`): its tables,
made on first use (and the columns of a later version added), and the statements that
store a batch of moves so that two processes never both extend a table.

Each is a constant with ``%s`` (or ``%(name)s``) parameters, passed by psycopg, never
formatted with data.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ADD_MOVE", "ADD_MOVES", "ADD_TABLE", "LOCK_AND_TOUCH", "PAUSE", "SCHEMA", "TABLE"]

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS chickenfoot_tables (
    n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    touched DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS chickenfoot_tables_touched ON chickenfoot_tables (touched);
CREATE TABLE IF NOT EXISTS chickenfoot_seats (
    table_id TEXT NOT NULL REFERENCES chickenfoot_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    spec TEXT NOT NULL,
    token TEXT,
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS chickenfoot_moves (
    table_id TEXT NOT NULL REFERENCES chickenfoot_tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    forced BOOLEAN NOT NULL,
    PRIMARY KEY (table_id, idx)
);
ALTER TABLE chickenfoot_tables ADD COLUMN IF NOT EXISTS pause_at INTEGER;
ALTER TABLE chickenfoot_tables ADD COLUMN IF NOT EXISTS pause_until DOUBLE PRECISION;
ALTER TABLE chickenfoot_tables ADD COLUMN IF NOT EXISTS ready_at INTEGER;
ALTER TABLE chickenfoot_tables ADD COLUMN IF NOT EXISTS ready INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chickenfoot_tables ADD COLUMN IF NOT EXISTS options TEXT NOT NULL DEFAULT '{}'
"""
ADD_TABLE: Final = """
INSERT INTO chickenfoot_tables (id, rules, seed, touched, options) VALUES (%s, %s, %s, %s, %s)
"""
TABLE: Final = "id, rules, seed, pause_at, pause_until, ready_at, ready, options"

# Each table's row is locked first, in order of id (two batches never wait on each other
# in a circle), and touched; then each move is stored if it extends its table (after a
# move of the same batch, only if that one was stored: its row is this transaction's),
# its table's id sent on the channel (once per table: PostgreSQL folds repeats) if it was.
LOCK_AND_TOUCH: Final = """
UPDATE chickenfoot_tables t SET touched = %s
FROM (SELECT id FROM chickenfoot_tables WHERE id = ANY(%s) ORDER BY id FOR NO KEY UPDATE) l
WHERE t.id = l.id
"""
ADD_MOVE: Final = """
WITH stored AS (
    INSERT INTO chickenfoot_moves (table_id, idx, seat, move, forced)
    SELECT %(t)s, %(idx)s, %(seat)s, %(move)s, %(forced)s
    WHERE EXISTS (SELECT 1 FROM chickenfoot_tables
                  WHERE id = %(t)s AND (%(seed)s::text IS NULL OR seed = %(seed)s::text))
      AND (%(idx)s = 0 OR EXISTS (SELECT 1 FROM chickenfoot_moves m
                                  WHERE table_id = %(t)s AND idx = %(idx)s - 1
                                    AND (%(first)s OR m.xmin = pg_current_xact_id()::xid)))
    ON CONFLICT DO NOTHING
    RETURNING table_id, idx
)
SELECT pg_notify(%(channel)s, table_id || ' ' || (idx + 1)) FROM stored
"""

# The same for a batch's tables that have one move in it (the usual: a table's next move
# waits for the commit of the one before), all in one statement.
ADD_MOVES: Final = """
WITH batch AS (
    SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::bool[], %s::text[])
                  AS b(t, idx, seat, move, forced, seed)
), stored AS (
    INSERT INTO chickenfoot_moves (table_id, idx, seat, move, forced)
    SELECT b.t, b.idx, b.seat, b.move, b.forced FROM batch b
    WHERE EXISTS (SELECT 1 FROM chickenfoot_tables
                  WHERE id = b.t AND (b.seed IS NULL OR seed = b.seed))
      AND (b.idx = 0 OR EXISTS (SELECT 1 FROM chickenfoot_moves
                                WHERE table_id = b.t AND idx = b.idx - 1))
    ON CONFLICT DO NOTHING
    RETURNING table_id, idx
)
SELECT table_id, idx, pg_notify(%s, table_id || ' ' || (idx + 1)) FROM stored
"""

# The rounds dealt by the moves of this transaction that end a round wait from its commit.
PAUSE: Final = """
UPDATE chickenfoot_tables t SET pause_at = p.idx + 1, pause_until = %s + p.pause,
    ready_at = NULL, ready = 0
FROM unnest(%s::text[], %s::int[], %s::float8[]) AS p(t, idx, pause)
WHERE t.id = p.t AND EXISTS (SELECT 1 FROM chickenfoot_moves m
                             WHERE m.table_id = p.t AND m.idx = p.idx
                               AND m.xmin = pg_current_xact_id()::xid)
"""
