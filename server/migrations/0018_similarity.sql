-- Similarity search and dating (spec part 2 §2, §3, §7): snippets of handwriting with the feature
-- vectors a model gave them, and the confusion matrices of models on labelled snippets.

-- One snippet per text line and model: the crop of the line's box, its feature vector (at most 100
-- values, as PostgreSQL's cube would take), and its tag (the value of the job's label field for the
-- image, when it has one). `model` is 'builtin' (the descriptor that needs no weights) or the uuid
-- of a Siamese network model; a model's row going away takes its snippets with it by the trigger
-- below, an image or line going away by the foreign keys.
CREATE TABLE similarity_snippet (
  id          uuid PRIMARY KEY,
  model       text NOT NULL,
  image_id    uuid NOT NULL REFERENCES document_image (id) ON DELETE CASCADE,
  line_id     uuid NOT NULL REFERENCES simple_text_line (id) ON DELETE CASCADE,
  region_x    integer NOT NULL CHECK (region_x >= 0),
  region_y    integer NOT NULL CHECK (region_y >= 0),
  region_w    integer NOT NULL CHECK (region_w > 0),
  region_h    integer NOT NULL CHECK (region_h > 0),
  tag         text,
  features    real[] NOT NULL CHECK (cardinality(features) BETWEEN 1 AND 100),
  job_id      integer REFERENCES job (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (model, line_id)
);
CREATE INDEX similarity_snippet_image ON similarity_snippet (image_id, model);
CREATE INDEX similarity_snippet_line ON similarity_snippet (line_id);
CREATE INDEX similarity_snippet_model_created ON similarity_snippet (model, created_at);

-- Bumped by every write to a model's snippets: a server keeps a model's vectors in memory while the
-- generation it read them at holds.
CREATE TABLE similarity_generation (
  model      text PRIMARY KEY,
  generation bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION similarity_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO similarity_generation (model, generation)
    SELECT DISTINCT model, 1 FROM changed
  ON CONFLICT (model) DO UPDATE SET generation = similarity_generation.generation + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER similarity_snippet_inserted AFTER INSERT ON similarity_snippet
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION similarity_bump();
CREATE TRIGGER similarity_snippet_updated AFTER UPDATE ON similarity_snippet
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION similarity_bump();
CREATE TRIGGER similarity_snippet_deleted AFTER DELETE ON similarity_snippet
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION similarity_bump();

CREATE FUNCTION similarity_model_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM similarity_snippet WHERE model = OLD.id::text;
  RETURN NULL;
END $$;
CREATE TRIGGER pim_model_similarity_deleted AFTER DELETE ON pim_model
  FOR EACH ROW WHEN (OLD.kind = 'siamesenetwork') EXECUTE FUNCTION similarity_model_deleted();

-- A model's confusion matrix on the labelled snippets of a set, made by a SiameseNetwork job: each
-- snippet's tag against the tag of its nearest snippet on another image.
CREATE TABLE siamese_confusion_matrix (
  id         uuid PRIMARY KEY,
  model      text NOT NULL,
  set_id     uuid REFERENCES document_image_set (id) ON DELETE CASCADE,
  job_id     integer REFERENCES job (id) ON DELETE SET NULL,
  owner_id   uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  labels     jsonb NOT NULL,
  matrix     jsonb NOT NULL,
  accuracy   double precision NOT NULL,
  snippets   integer NOT NULL,
  report     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX siamese_confusion_matrix_created ON siamese_confusion_matrix (created_at DESC);
CREATE INDEX siamese_confusion_matrix_set ON siamese_confusion_matrix (set_id);

-- A job only a remote worker may take: a SiameseNetwork job that trains, or applies a model that
-- cannot run in this server (a TensorFlow SavedModel or Keras file). The built-in worker skips them.
ALTER TABLE job ADD COLUMN remote_only boolean NOT NULL DEFAULT false;
