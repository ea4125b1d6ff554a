-- +goose Up
-- Who has which file of a portal open now (issue 21, internal/presence). Advisory, never a
-- lock: an entry lives PresenceTTL after its author's last heartbeat and is then ignored and
-- swept. In the database so that every instance answers the same list.
CREATE TABLE presence (
    portal_id  INTEGER   NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    path       TEXT      NOT NULL,
    state      TEXT      NOT NULL, -- viewing | editing
    since      TIMESTAMP NOT NULL, -- when this state began
    seen_at    TIMESTAMP NOT NULL, -- the last heartbeat
    PRIMARY KEY (portal_id, user_id, path)
);
CREATE INDEX presence_seen ON presence (seen_at);

-- +goose Down
DROP TABLE presence;
