-- +goose Up
-- Room messages too large for a PostgreSQL NOTIFY payload are parked here and announced by
-- id (used with PostgreSQL only; the table exists on both for one schema).
CREATE TABLE realtime_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    payload    TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE realtime_events;
