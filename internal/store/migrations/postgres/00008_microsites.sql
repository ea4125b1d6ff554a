-- +goose Up
-- Microsites (portals of scope MICROSITE) linked into a portal; a linked microsite is
-- reached at microsites/<name>/index.html (spec 3 §3 Microsite).
CREATE TABLE portal_microsites (
    portal_id    BIGINT    NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    microsite_id BIGINT    NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (portal_id, microsite_id)
);

-- +goose Down
DROP TABLE portal_microsites;
