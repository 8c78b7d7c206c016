-- An agreement activity's (type 15) terms, spec 001's `agreements` (button, checkbox): the
-- text of the checkbox the member must tick and the label of the button that records the
-- participation, in order.
CREATE TABLE action_agreements (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action_id BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL DEFAULT 0,
    checkbox  TEXT NOT NULL CHECK (btrim(checkbox) <> ''),
    button    TEXT NOT NULL CHECK (btrim(button) <> ''),
    UNIQUE (action_id, position)
);
