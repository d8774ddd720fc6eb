-- The drawing tool's shapes on a page image: one drawing per image, saved and replaced whole.
CREATE TABLE image_drawing (
  image_id   uuid PRIMARY KEY REFERENCES document_image (id) ON DELETE CASCADE,
  -- [{id, kind, label, points: [[x, y], ...]}], checked against the contract before it is written.
  shapes     jsonb NOT NULL,
  updated_by uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
