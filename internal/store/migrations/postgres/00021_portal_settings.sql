-- +goose Up
-- The settings Portalwright keeps for a portal outside its repository (issue 30 item 6,
-- internal/editing/settings.go, docs/decisions.md): a portal imported from a git URL whose
-- repository has no portal.json keeps its settings here, so nothing of them is committed or
-- pushed to the project's host. One set per portal (not per branch: a project's branches come
-- and go on its host); settings is portal.json's JSON, revision counts the saves (the version
-- a save must be based on).
CREATE TABLE portal_settings (
    portal_id  BIGINT    NOT NULL PRIMARY KEY REFERENCES portals (id) ON DELETE CASCADE,
    settings   TEXT      NOT NULL,
    revision   BIGINT    NOT NULL,
    updated_by BIGINT,
    updated_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE portal_settings;
