-- +goose Up
-- Hand-over of approved loadables to downstream systems (issue 14, internal/handover): a durable
-- queue of deliveries, one per (loadable, target), sent by a background worker with retries, and
-- the log of every attempt. The package fields are copied into the row so the worker needs
-- nothing else. No foreign keys to loadables or users: the record outlives them.
CREATE TABLE handover_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    loadable_id     INTEGER   NOT NULL,
    domain_id       INTEGER   NOT NULL,
    portal_id       INTEGER   NOT NULL,
    domain_name     TEXT      NOT NULL DEFAULT '',
    portal_name     TEXT      NOT NULL DEFAULT '',
    target          TEXT      NOT NULL,              -- target name in the targets file
    system          TEXT      NOT NULL,              -- unity | scmdb
    name            TEXT      NOT NULL,              -- loadable name
    version         TEXT      NOT NULL,
    part_number     TEXT      NOT NULL,
    file_name       TEXT      NOT NULL,
    archive_path    TEXT      NOT NULL,
    archive_sha256  TEXT      NOT NULL,
    manifest        TEXT      NOT NULL,
    status          TEXT      NOT NULL,              -- QUEUED | SENDING | DELIVERED | FAILED
    attempts        INTEGER   NOT NULL DEFAULT 0,    -- every attempt ever made
    retry_base      INTEGER   NOT NULL DEFAULT 0,    -- attempts before the last re-queue (backoff and give-up count from here)
    last_error      TEXT      NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    created_by      INTEGER   NOT NULL,
    next_attempt_at TIMESTAMP NULL,                  -- set while QUEUED
    claimed_at      TIMESTAMP NULL,                  -- last heartbeat of the worker (status SENDING)
    claim_token     TEXT      NOT NULL DEFAULT '',
    last_attempt_at TIMESTAMP NULL,
    delivered_at    TIMESTAMP NULL
);
CREATE UNIQUE INDEX handover_deliveries_loadable_target ON handover_deliveries (loadable_id, target);
CREATE INDEX handover_deliveries_due ON handover_deliveries (status, next_attempt_at);

CREATE TABLE handover_attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id INTEGER   NOT NULL REFERENCES handover_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER   NOT NULL,                  -- 1, 2, … per delivery
    at          TIMESTAMP NOT NULL,
    outcome     TEXT      NOT NULL,                  -- DELIVERED | RETRY | FAILED | INTERRUPTED
    http_status INTEGER   NOT NULL DEFAULT 0,        -- 0 for directory targets and network errors
    error       TEXT      NOT NULL DEFAULT '',
    duration_ms INTEGER   NOT NULL DEFAULT 0
);
CREATE INDEX handover_attempts_delivery ON handover_attempts (delivery_id, id);

-- +goose Down
DROP TABLE handover_attempts;
DROP TABLE handover_deliveries;
