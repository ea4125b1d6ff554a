-- +goose Up
-- Loadables (issue 14, spec 3 §3 Loadable generation request, §4 Loadables): a package of a
-- universal portal built from one commit, approved by a person, handed over downstream. The
-- archive lives under data/loadables; the row is its record.
CREATE TABLE loadables (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id       INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    portal_id       INTEGER   NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    name            TEXT      NOT NULL,
    part_number     TEXT      NOT NULL,
    version_prefix  TEXT      NOT NULL,
    version         TEXT      NOT NULL,
    type            TEXT      NOT NULL,
    git_ref         TEXT      NOT NULL,
    commit_id       TEXT      NOT NULL,
    status          TEXT      NOT NULL,
    file_name       TEXT      NOT NULL,
    size            BIGINT    NOT NULL,
    sha256          TEXT      NOT NULL,
    copyright       TEXT      NOT NULL,
    error_title     TEXT      NOT NULL,
    error_message   TEXT      NOT NULL,
    error_code      TEXT      NOT NULL,
    output          TEXT      NOT NULL,
    reject_reason   TEXT      NOT NULL,
    created_by      INTEGER    NOT NULL,
    approved_by     INTEGER,
    rejected_by     INTEGER,
    created_at      TIMESTAMP NOT NULL,
    generated_at    TIMESTAMP,
    decided_at      TIMESTAMP,
    UNIQUE (portal_id, name),
    UNIQUE (portal_id, version)
);
CREATE INDEX loadables_portal_created ON loadables (portal_id, created_at);

-- +goose Down
DROP TABLE loadables;
