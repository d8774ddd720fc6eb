-- Text lines to correct: one per line of a stored transcription's layout, with the ground truth
-- people give them, and the lines each person skipped.

CREATE TABLE simple_text_line (
  id               uuid PRIMARY KEY,
  transcription_id uuid NOT NULL REFERENCES transcription (id) ON DELETE CASCADE,
  image_id         uuid NOT NULL REFERENCES document_image (id) ON DELETE CASCADE,
  -- Reading order in the transcription: regions in layout order, then their lines.
  line_index       integer NOT NULL CHECK (line_index >= 0),
  text             text NOT NULL,
  ground_truth     text,
  confidence       double precision CHECK (confidence BETWEEN 0 AND 1),
  lowest_conf      double precision CHECK (lowest_conf BETWEEN 0 AND 1),
  -- The bounding box of the line's outline in image pixels, clamped to the image; all null without one.
  region_x         integer CHECK (region_x >= 0),
  region_y         integer CHECK (region_y >= 0),
  region_w         integer CHECK (region_w > 0),
  region_h         integer CHECK (region_h > 0),
  cer              double precision CHECK (cer >= 0),
  corrected_by     uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  corrected_at     timestamptz,
  -- A random pick walks the index on this key from a random point: no sort over all lines.
  random_key       double precision NOT NULL DEFAULT random(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (transcription_id, line_index),
  CHECK ((region_x IS NULL) = (region_y IS NULL) AND (region_x IS NULL) = (region_w IS NULL) AND (region_x IS NULL) = (region_h IS NULL)),
  CHECK ((ground_truth IS NULL) = (cer IS NULL))
);
CREATE INDEX simple_text_line_image_idx ON simple_text_line (image_id);
CREATE INDEX simple_text_line_uncorrected_idx ON simple_text_line (random_key) WHERE ground_truth IS NULL;
CREATE INDEX simple_text_line_image_uncorrected_idx ON simple_text_line (image_id, random_key) WHERE ground_truth IS NULL;
-- IS NOT NULL as well: its share is known to the planner (null_frac), that of <> between columns is not.
CREATE INDEX simple_text_line_different_idx ON simple_text_line (cer DESC, id) WHERE ground_truth IS NOT NULL AND ground_truth <> text;

-- A skip hides the line from that person's random picks only.
CREATE TABLE text_line_skip (
  user_id    uuid NOT NULL REFERENCES pim_user (id) ON DELETE CASCADE,
  line_id    uuid NOT NULL REFERENCES simple_text_line (id) ON DELETE CASCADE,
  skipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, line_id)
);
CREATE INDEX text_line_skip_line_idx ON text_line_skip (line_id);

-- Transcriptions stored before this migration: the server makes their lines at start-up, with the
-- same code that makes the lines of a new import, and removes each row once its lines exist.
CREATE TABLE text_line_backfill (
  transcription_id uuid PRIMARY KEY REFERENCES transcription (id) ON DELETE CASCADE
);
INSERT INTO text_line_backfill (transcription_id) SELECT id FROM transcription;
