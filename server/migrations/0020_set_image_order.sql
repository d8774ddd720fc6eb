-- Paging a set's images in any order (GET pim/documentimageset/{uuid}/documentimages). Each
-- membership carries a copy of its image's sort keys, kept by triggers, so a page of a set sorted by
-- any column is read from one index of (set_id, key, image_id), and skipped pages are skipped in the
-- index, without joining or sorting the set's other images. label_lower is the lower-cased label
-- that the label filter matches (a case-insensitive substring, by LIKE on a trigram index): kept
-- lower-cased so a filter that matches most of a set does not lower every label it counts.

ALTER TABLE image_set_image
  ADD COLUMN label        text,
  ADD COLUMN label_lower  text,
  ADD COLUMN width        integer,
  ADD COLUMN height       integer,
  ADD COLUMN page_number  integer,
  ADD COLUMN deskew_angle double precision,
  ADD COLUMN column_count integer,
  ADD COLUMN lines_count  integer,
  ADD COLUMN confidence   double precision,
  ADD COLUMN created_at   timestamptz,
  ADD COLUMN updated_at   timestamptz;

UPDATE image_set_image m SET
  label = d.label, label_lower = lower(d.label), width = d.width, height = d.height, page_number = d.page_number,
  deskew_angle = d.deskew_angle, column_count = d.column_count, lines_count = d.lines_count, confidence = d.confidence,
  created_at = d.created_at, updated_at = d.updated_at
FROM document_image d WHERE d.id = m.image_id;

ALTER TABLE image_set_image
  ALTER COLUMN label SET NOT NULL,
  ALTER COLUMN label_lower SET NOT NULL,
  ALTER COLUMN width SET NOT NULL,
  ALTER COLUMN height SET NOT NULL,
  ALTER COLUMN created_at SET NOT NULL,
  ALTER COLUMN updated_at SET NOT NULL;

-- A new membership copies its image's keys.
CREATE FUNCTION image_set_image_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.label, lower(d.label), d.width, d.height, d.page_number, d.deskew_angle, d.column_count, d.lines_count, d.confidence, d.created_at, d.updated_at
  INTO NEW.label, NEW.label_lower, NEW.width, NEW.height, NEW.page_number, NEW.deskew_angle, NEW.column_count, NEW.lines_count, NEW.confidence, NEW.created_at, NEW.updated_at
  FROM document_image d WHERE d.id = NEW.image_id;
  RETURN NEW;
END $$;
CREATE TRIGGER image_set_image_keys BEFORE INSERT OR UPDATE OF image_id ON image_set_image
  FOR EACH ROW EXECUTE FUNCTION image_set_image_copy_keys();

-- A changed key of an image changes it in every set that holds the image.
CREATE FUNCTION document_image_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE image_set_image m SET
    label = NEW.label, label_lower = lower(NEW.label), width = NEW.width, height = NEW.height, page_number = NEW.page_number,
    deskew_angle = NEW.deskew_angle, column_count = NEW.column_count, lines_count = NEW.lines_count, confidence = NEW.confidence,
    created_at = NEW.created_at, updated_at = NEW.updated_at
  WHERE m.image_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER document_image_keys AFTER UPDATE ON document_image FOR EACH ROW
  WHEN ((OLD.label, OLD.width, OLD.height, OLD.page_number, OLD.deskew_angle, OLD.column_count, OLD.lines_count, OLD.confidence, OLD.created_at, OLD.updated_at)
    IS DISTINCT FROM (NEW.label, NEW.width, NEW.height, NEW.page_number, NEW.deskew_angle, NEW.column_count, NEW.lines_count, NEW.confidence, NEW.created_at, NEW.updated_at))
  EXECUTE FUNCTION document_image_copy_keys();

-- One index per sort of the image table, each ending in image_id, the tie-break of every sort; read
-- backwards for a descending sort. The set order's index replaces the one of (set_id, position).
DROP INDEX image_set_image_order_idx;
CREATE INDEX image_set_image_order_idx ON image_set_image (set_id, position, image_id);
CREATE INDEX image_set_image_label_idx ON image_set_image (set_id, label, image_id);
CREATE INDEX image_set_image_created_idx ON image_set_image (set_id, created_at, image_id);
CREATE INDEX image_set_image_updated_idx ON image_set_image (set_id, updated_at, image_id);
CREATE INDEX image_set_image_width_idx ON image_set_image (set_id, width, image_id);
CREATE INDEX image_set_image_height_idx ON image_set_image (set_id, height, image_id);
CREATE INDEX image_set_image_page_number_idx ON image_set_image (set_id, page_number, image_id);
CREATE INDEX image_set_image_deskew_angle_idx ON image_set_image (set_id, deskew_angle, image_id);
CREATE INDEX image_set_image_column_count_idx ON image_set_image (set_id, column_count, image_id);
CREATE INDEX image_set_image_lines_count_idx ON image_set_image (set_id, lines_count, image_id);
CREATE INDEX image_set_image_confidence_idx ON image_set_image (set_id, confidence, image_id);
-- The label filter: the images whose label contains a text, in any case (pg_trgm from 0014). New
-- entries go straight into the index: PGlite has no autovacuum to merge a pending list of them,
-- which every search would read through (up to 4 MB of it).
CREATE INDEX image_set_image_label_trgm_idx ON image_set_image USING gin (label_lower gin_trgm_ops) WITH (fastupdate = off);
