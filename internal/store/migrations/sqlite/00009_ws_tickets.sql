-- +goose Up
-- Single-use tickets that open a WebSocket (no long-lived token in URLs). Kept in the
-- database so a ticket issued by one instance can be redeemed at another.
CREATE TABLE ws_tickets (
    ticket_hash TEXT PRIMARY KEY,
    user_id     INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id  TEXT      NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP NULL
);
CREATE INDEX ws_tickets_expires_at ON ws_tickets (expires_at);

-- +goose Down
DROP TABLE ws_tickets;
