-- +goose Up
-- Durable e-mail outbox (internal/notify): every mail is stored first and delivered by a
-- background worker with retries; without SMTP it is kept ('held') for admins to read.
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT      NOT NULL,              -- transactional | notification
    user_id         INTEGER   NULL,                  -- recipient user (opt-out check); no foreign key: the record outlives the user
    recipient       TEXT      NOT NULL,
    recipient_name  TEXT      NOT NULL DEFAULT '',
    subject         TEXT      NOT NULL,
    body            TEXT      NOT NULL,
    message_key     TEXT      NOT NULL,              -- random local part of the Message-ID, stable across retries
    status          TEXT      NOT NULL,              -- pending | sending | sent | failed | held | skipped
    attempts        INTEGER   NOT NULL DEFAULT 0,
    last_error      TEXT      NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    next_attempt_at TIMESTAMP NULL,                  -- set while pending
    claimed_at      TIMESTAMP NULL,                  -- when a worker took it (status sending)
    claim_token     TEXT      NOT NULL DEFAULT '',   -- which worker took it
    sent_at         TIMESTAMP NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_created ON mail_outbox (created_at);

-- +goose Down
DROP TABLE mail_outbox;
