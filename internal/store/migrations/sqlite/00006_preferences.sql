-- +goose Up
-- System preferences; the application reads the first row (spec 1 §3 Preference).
CREATE TABLE preferences (
    id             INTEGER PRIMARY KEY,
    banner_status  TEXT      NOT NULL DEFAULT 'BANNER_OFF',
    banner_message TEXT      NOT NULL DEFAULT '',
    updated_at     TIMESTAMP NOT NULL,
    updated_by     TEXT      NOT NULL DEFAULT ''
);
INSERT INTO preferences (id, banner_status, banner_message, updated_at) VALUES (1, 'BANNER_OFF', '', CURRENT_TIMESTAMP);

-- +goose Down
DROP TABLE preferences;
