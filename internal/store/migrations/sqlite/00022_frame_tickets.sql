-- +goose Up
-- Single-use tickets that open the designer's frame on its own origin (--frame-addr,
-- internal/preview/frame.go): the frame's URL carries one, the frame origin exchanges it for
-- an HttpOnly cookie, so no read token is ever in a URL the portal's scripts can read. Kept in
-- the database so a ticket issued by one instance can be redeemed at another.
CREATE TABLE frame_tickets (
    ticket_hash TEXT PRIMARY KEY,
    user_id     INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    domain_id   INTEGER   NOT NULL,
    portal_id   INTEGER   NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP NULL
);
CREATE INDEX frame_tickets_expires_at ON frame_tickets (expires_at);

-- +goose Down
DROP TABLE frame_tickets;
