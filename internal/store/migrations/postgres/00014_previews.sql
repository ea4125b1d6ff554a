-- +goose Up
-- Shared previews (issue 13, spec 3 §3 Preview, §4 Previews): a locked snapshot, a live view of
-- a user's workspace, or a loadable, reached by an unguessable link token until it expires.
CREATE TABLE previews (
    id            BIGSERIAL PRIMARY KEY,
    token         TEXT      NOT NULL UNIQUE,
    type          TEXT      NOT NULL,
    status        TEXT      NOT NULL,
    domain_id     BIGINT    NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    portal_id     BIGINT    NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    user_id       BIGINT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    branch        TEXT      NOT NULL,
    commit_id     TEXT      NOT NULL,
    language      TEXT      NOT NULL,
    page          TEXT      NOT NULL,
    version_tag   TEXT      NOT NULL,
    emulator      TEXT      NOT NULL,
    root          TEXT      NOT NULL,
    error_title   TEXT      NOT NULL,
    error_message TEXT      NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    expires_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX previews_user_portal ON previews (user_id, portal_id, created_at);
CREATE INDEX previews_expires_at ON previews (expires_at);

-- +goose Down
DROP TABLE previews;
