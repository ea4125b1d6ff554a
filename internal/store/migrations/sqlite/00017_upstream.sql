-- +goose Up
-- The git host of a portal created from a git URL (issue 15, internal/upstream). The URL
-- itself is portals.upstream_url (without credentials). Credentials are sealed with the
-- operator's secrets key (AES-256-GCM, bound to the portal id) and never leave the server;
-- an SSH deploy key's public half is kept in clear for the settings screen. The webhook
-- secret is not stored: it is derived from the server's signing secret and webhook_nonce
-- (a new nonce replaces it).
CREATE TABLE portal_upstreams (
    portal_id          INTEGER PRIMARY KEY REFERENCES portals (id) ON DELETE CASCADE,
    auth_kind          TEXT      NOT NULL DEFAULT 'NONE', -- NONE | PASSWORD | SSH_KEY
    sealed_credentials TEXT      NOT NULL DEFAULT '',     -- v1:<base64 nonce+ciphertext>
    public_key         TEXT      NOT NULL DEFAULT '',     -- SSH_KEY: the authorized_keys line
    known_hosts        TEXT      NOT NULL DEFAULT '',     -- host keys ssh accepted (accept-new)
    webhook_nonce      TEXT      NOT NULL,
    pending_branches   TEXT      NOT NULL DEFAULT '',     -- branches whose push failed, comma-separated
    last_sync_at       TIMESTAMP NULL,                     -- last fetch or push the host answered
    last_error         TEXT      NOT NULL DEFAULT '',
    last_error_kind    TEXT      NOT NULL DEFAULT '',     -- FETCH | PUSH | MERGE | CREDENTIALS
    last_error_at      TIMESTAMP NULL,
    updated_at         TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE portal_upstreams;
