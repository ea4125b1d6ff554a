-- +goose Up
-- A pending password reset: the new password is chosen when the reset is requested and takes
-- effect when the e-mailed link is confirmed. Only a hash of the link's token is stored.
CREATE TABLE password_resets (
    token_hash    TEXT PRIMARY KEY,
    user_id       INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    password_hash TEXT      NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    expires_at    TIMESTAMP NOT NULL,
    used_at       TIMESTAMP NULL
);
CREATE INDEX password_resets_user_id ON password_resets (user_id);

-- One-time passwords (accounts made by an admin, forced resets) expire.
ALTER TABLE users ADD COLUMN otp_expires_at TIMESTAMP NULL;

-- Failed sign-ins, keyed by user name and by client address, for rate limiting.
CREATE TABLE login_failures (
    id  INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT      NOT NULL,
    at  TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);

-- +goose Down
DROP TABLE login_failures;
ALTER TABLE users DROP COLUMN otp_expires_at;
DROP TABLE password_resets;
