-- +goose Up
-- Release readiness (issue 29, internal/readiness, docs/readiness.md "The approval gate").
-- The gate (refuse approving a loadable whose commit has readiness errors unless the approver
-- overrides with a reason) is owned by the readiness feature: one row per portal that has set
-- it. A portal without a row has the gate ON, so portals created from now on start with it on;
-- the portals that exist now get a row with it OFF, so nothing changes for them until someone
-- turns it on.
CREATE TABLE readiness_settings (
    portal_id  INTEGER   NOT NULL PRIMARY KEY REFERENCES portals (id) ON DELETE CASCADE,
    gate       BOOLEAN   NOT NULL,
    updated_by INTEGER,
    updated_at TIMESTAMP NOT NULL
);
INSERT INTO readiness_settings (portal_id, gate, updated_at) SELECT id, FALSE, CURRENT_TIMESTAMP FROM portals;

-- An approval over the gate keeps why and how many errors the commit had.
ALTER TABLE loadables ADD COLUMN override_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE loadables ADD COLUMN override_errors INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE loadables DROP COLUMN override_errors;
ALTER TABLE loadables DROP COLUMN override_reason;
DROP TABLE readiness_settings;
