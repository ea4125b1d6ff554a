-- +goose Up
-- Sign-in and password-reset throttle (issue 8, item 4): one row per bucket — a user name and
-- client address pair, a user name, a client address, a reset target — counted and checked in
-- one transaction per attempt, so parallel attempts cannot race past the limit.
CREATE TABLE login_throttle (
    bucket        TEXT PRIMARY KEY,
    failures      INTEGER   NOT NULL DEFAULT 0,
    last_at       TIMESTAMP NOT NULL,
    blocked_until TIMESTAMP NULL
);
CREATE INDEX login_throttle_last_at ON login_throttle (last_at);

-- Addresses a user has signed in from with the right password: the looser per-user and
-- per-address caps do not apply to them, so an attacker cannot lock the owner out.
CREATE TABLE login_known_clients (
    user_id         INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    addr            TEXT      NOT NULL,
    last_success_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, addr)
);

DROP TABLE login_failures;

-- +goose Down
CREATE TABLE login_failures (
    id  INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT      NOT NULL,
    at  TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);
DROP TABLE login_known_clients;
DROP TABLE login_throttle;
