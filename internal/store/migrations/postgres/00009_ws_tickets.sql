-- +goose Up
-- Single-use tickets that open a WebSocket (no long-lived token in URLs). Kept in the
-- database so a ticket issued by one instance can be redeemed at another.
CREATE TABLE ws_tickets (
    ticket_hash TEXT PRIMARY KEY,
    user_id     BIGINT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id  TEXT      NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ NULL
);
CREATE INDEX ws_tickets_expires_at ON ws_tickets (expires_at);

-- +goose Down
DROP TABLE ws_tickets;
