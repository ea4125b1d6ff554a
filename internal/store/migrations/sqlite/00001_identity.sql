-- +goose Up
CREATE TABLE users (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    username             TEXT      NOT NULL,
    username_key         TEXT      NOT NULL UNIQUE, -- lower(username): user names are case-insensitive
    first_name           TEXT      NOT NULL DEFAULT '',
    middle_name          TEXT      NOT NULL DEFAULT '',
    last_name            TEXT      NOT NULL DEFAULT '',
    email                TEXT      NOT NULL DEFAULT '',
    password_hash        TEXT      NOT NULL,
    admin                BOOLEAN   NOT NULL DEFAULT FALSE,
    public_key           TEXT      NOT NULL DEFAULT '',
    opt_out_notification BOOLEAN   NOT NULL DEFAULT FALSE,
    must_reset_password  BOOLEAN   NOT NULL DEFAULT FALSE,
    last_logged_in       TIMESTAMP NULL,
    created_at           TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL
);

-- One row per sign-in. The access token names its session, so revoking the row ends it.
CREATE TABLE sessions (
    id             TEXT PRIMARY KEY,
    user_id        INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    refresh_hash   TEXT      NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    refreshed_at   TIMESTAMP NOT NULL,
    expires_at     TIMESTAMP NOT NULL,
    revoked_at     TIMESTAMP NULL,
    revoked_reason TEXT      NOT NULL DEFAULT '',
    client_addr    TEXT      NOT NULL DEFAULT '',
    user_agent     TEXT      NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_id ON sessions (user_id);

-- Secrets shared by every instance (token signing key), created once.
CREATE TABLE server_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE server_secrets;
DROP TABLE sessions;
DROP TABLE users;
