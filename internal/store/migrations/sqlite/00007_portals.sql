-- +goose Up
-- Categories group a domain's portals in the portal selector.
CREATE TABLE categories (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id  INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name       TEXT      NOT NULL,
    name_key   TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (domain_id, name_key)
);

-- A portal's content lives in git (data/repos/<id>.git); this row is its metadata.
CREATE TABLE portals (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id         INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name              TEXT      NOT NULL,
    name_key          TEXT      NOT NULL,
    portal_type       TEXT      NOT NULL DEFAULT 'CREW',   -- CREW or PASSENGER
    scope             TEXT      NOT NULL DEFAULT 'FULL',   -- FULL, MICROSITE or CAPTIVE
    status            TEXT      NOT NULL DEFAULT 'active', -- active or inactive
    category_id       INTEGER   NULL REFERENCES categories (id) ON DELETE SET NULL,
    active_branch     TEXT      NOT NULL DEFAULT 'master',
    upstream_url      TEXT      NOT NULL DEFAULT '',
    source            TEXT      NOT NULL DEFAULT '',       -- template:<id>, url, clone:<portal id>
    created_by        INTEGER   NULL,
    created_at        TIMESTAMP NOT NULL,
    last_modified     TIMESTAMP NOT NULL,
    UNIQUE (domain_id, name_key)
);
CREATE INDEX portals_domain_id ON portals (domain_id);

-- Templates a domain creates portals from: a starter shipped with the product, or a portal.
CREATE TABLE templates (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id        INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name             TEXT      NOT NULL,
    name_key         TEXT      NOT NULL,
    starter          TEXT      NOT NULL DEFAULT '',
    source_portal_id INTEGER   NULL REFERENCES portals (id) ON DELETE SET NULL,
    created_at       TIMESTAMP NOT NULL,
    UNIQUE (domain_id, name_key)
);

-- +goose Down
DROP TABLE templates;
DROP TABLE portals;
DROP TABLE categories;
