-- Statistics (spec part 1 §2 "Statistics page", §7 "Statistics"; part 2 §2 Dashboard): counts kept
-- as the records change, so a chart reads a few hundred rows however large the collection is.
--
-- statistic_count holds, per kind of record, the records counted in one scope on one UTC day:
--   image          an image in a set, on the day it was added to the set (scope: the set);
--   transcription  a transcription of an image in a set, on the day it was made (scope: the set;
--                  variant: '<format>:<origin>', see statistic_transcription_variant);
--   snippet        a similarity snippet of an image in a set, on the day it was cut (scope: the
--                  set; variant: the model);
--   similarity-search  a similarity search, on the day it was asked (scope: the user, or the nil
--                  uuid for an API key; variant: the kind of search); counted by the service;
--   stored-files, stored-bytes  the files of the file store and their bytes, on the day they were
--                  stored (scope: the owner, or the nil uuid; variant: the media type).
-- Records of a set count in each set that holds them, as the sets' own lists do; a deleted set's
-- rows stay and are left out by the queries, which join the live sets. Triggers keep the counts of
-- the tables below.

CREATE TABLE statistic_count (
  kind    text NOT NULL,
  variant text NOT NULL DEFAULT '',
  scope   uuid NOT NULL,
  day     date NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (kind, scope, day, variant)
);

-- When an image joined the set: its day in the set's counts.
ALTER TABLE image_set_image ADD COLUMN added_at timestamptz NOT NULL DEFAULT now();
UPDATE image_set_image m SET added_at = i.created_at FROM document_image i WHERE i.id = m.image_id;

-- Failed jobs, newest first, and a user's unfinished jobs: the dashboard's job queue.
CREATE INDEX job_failed_recent ON job (finished_at DESC) WHERE state = 'failed';
CREATE INDEX job_owner_failed ON job (owner_id, finished_at DESC) WHERE state = 'failed';
CREATE INDEX job_owner_unfinished ON job (owner_id, type) WHERE state IN ('queued', 'running');

CREATE FUNCTION statistic_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (at AT TIME ZONE 'UTC')::date
$$;

-- Where a transcription came from: 'tesseract' (PIM's own Tesseract jobs), 'worker' (another job
-- of PIM's, e.g. a remote worker's recognition), 'transkribus' (a file Transkribus made, by its
-- Creator), 'upload' (any other uploaded file).
CREATE FUNCTION statistic_transcription_variant(format text, transcriber text, params jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format || ':' || CASE
    WHEN params->>'job' IN ('Tesseract4Hocr', 'RedoTesseract4ExistingPageXML') THEN 'tesseract'
    WHEN params ? 'job' THEN 'worker'
    WHEN transcriber ILIKE '%transkribus%' THEN 'transkribus'
    ELSE 'upload'
  END
$$;

-- Each trigger counts a statement's rows in one upsert, its keys in a fixed order, so two statements
-- never wait on each other's rows crosswise.

-- An image joining or leaving a set brings its transcriptions and snippets along.
CREATE FUNCTION statistic_set_images() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO statistic_count AS c (kind, variant, scope, day, n)
  SELECT kind, variant, scope, day, sign * count(*) FROM (
    SELECT 'image' AS kind, '' AS variant, m.set_id AS scope, statistic_day(m.added_at) AS day FROM changed m
    UNION ALL
    SELECT 'transcription', statistic_transcription_variant(t.format, t.transcriber, t.params), m.set_id, statistic_day(t.created_at)
    FROM changed m JOIN transcription t ON t.image_id = m.image_id
    UNION ALL
    SELECT 'snippet', s.model, m.set_id, statistic_day(s.created_at)
    FROM changed m JOIN similarity_snippet s ON s.image_id = m.image_id
  ) counted GROUP BY 1, 2, 3, 4 ORDER BY 1, 3, 4, 2
  ON CONFLICT (kind, scope, day, variant) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER image_set_image_counted AFTER INSERT ON image_set_image
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_set_images();
CREATE TRIGGER image_set_image_uncounted AFTER DELETE ON image_set_image
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_set_images();

-- A transcription counts in every set that holds its image.
CREATE FUNCTION statistic_transcriptions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO statistic_count AS c (kind, variant, scope, day, n)
  SELECT 'transcription', statistic_transcription_variant(t.format, t.transcriber, t.params), m.set_id, statistic_day(t.created_at), sign * count(*)
  FROM changed t JOIN image_set_image m ON m.image_id = t.image_id
  GROUP BY 2, 3, 4 ORDER BY 3, 4, 2
  ON CONFLICT (kind, scope, day, variant) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER transcription_counted AFTER INSERT ON transcription
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_transcriptions();
CREATE TRIGGER transcription_uncounted AFTER DELETE ON transcription
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_transcriptions();

-- An update moves a transcription's count only when what it is counted by changes (updates rewrite
-- its layout and text, which are not).
CREATE FUNCTION statistic_transcriptions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistic_count AS c (kind, variant, scope, day, n)
  SELECT 'transcription', moved.variant, m.set_id, moved.day, sum(moved.sign)
  FROM (
    SELECT o.image_id, statistic_transcription_variant(o.format, o.transcriber, o.params) AS variant, statistic_day(o.created_at) AS day, -1 AS sign
    FROM old_rows o JOIN new_rows n USING (id)
    WHERE (o.image_id, o.format, o.transcriber, o.params, o.created_at) IS DISTINCT FROM (n.image_id, n.format, n.transcriber, n.params, n.created_at)
    UNION ALL
    SELECT n.image_id, statistic_transcription_variant(n.format, n.transcriber, n.params), statistic_day(n.created_at), 1
    FROM old_rows o JOIN new_rows n USING (id)
    WHERE (o.image_id, o.format, o.transcriber, o.params, o.created_at) IS DISTINCT FROM (n.image_id, n.format, n.transcriber, n.params, n.created_at)
  ) moved JOIN image_set_image m ON m.image_id = moved.image_id
  GROUP BY 2, 3, 4 ORDER BY 3, 4, 2
  ON CONFLICT (kind, scope, day, variant) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER transcription_recounted AFTER UPDATE ON transcription
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION statistic_transcriptions_updated();

-- A snippet counts in every set that holds its image (rewriting a snippet's vector keeps its count).
CREATE FUNCTION statistic_snippets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO statistic_count AS c (kind, variant, scope, day, n)
  SELECT 'snippet', s.model, m.set_id, statistic_day(s.created_at), sign * count(*)
  FROM changed s JOIN image_set_image m ON m.image_id = s.image_id
  GROUP BY 2, 3, 4 ORDER BY 3, 4, 2
  ON CONFLICT (kind, scope, day, variant) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER similarity_snippet_counted AFTER INSERT ON similarity_snippet
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_snippets();
CREATE TRIGGER similarity_snippet_uncounted AFTER DELETE ON similarity_snippet
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_snippets();

-- The file store's files and their bytes, by owner and media type.
CREATE FUNCTION statistic_stored_files() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO statistic_count AS c (kind, variant, scope, day, n)
  SELECT k.kind, f.media_type, coalesce(f.owner_id, '00000000-0000-0000-0000-000000000000'::uuid), statistic_day(f.created_at),
    sign * CASE WHEN k.kind = 'stored-files' THEN count(*) ELSE sum(f.size_bytes) END
  FROM changed f CROSS JOIN (VALUES ('stored-bytes'), ('stored-files')) AS k(kind)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 3, 4, 2
  ON CONFLICT (kind, scope, day, variant) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER stored_file_counted AFTER INSERT ON stored_file
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_stored_files();
CREATE TRIGGER stored_file_uncounted AFTER DELETE ON stored_file
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistic_stored_files();

-- What is there already.
INSERT INTO statistic_count (kind, variant, scope, day, n)
SELECT 'image', '', set_id, statistic_day(added_at), count(*) FROM image_set_image GROUP BY 3, 4;
INSERT INTO statistic_count (kind, variant, scope, day, n)
SELECT 'transcription', statistic_transcription_variant(t.format, t.transcriber, t.params), m.set_id, statistic_day(t.created_at), count(*)
FROM transcription t JOIN image_set_image m ON m.image_id = t.image_id GROUP BY 2, 3, 4;
INSERT INTO statistic_count (kind, variant, scope, day, n)
SELECT 'snippet', s.model, m.set_id, statistic_day(s.created_at), count(*)
FROM similarity_snippet s JOIN image_set_image m ON m.image_id = s.image_id GROUP BY 2, 3, 4;
INSERT INTO statistic_count (kind, variant, scope, day, n)
SELECT k.kind, f.media_type, coalesce(f.owner_id, '00000000-0000-0000-0000-000000000000'::uuid), statistic_day(f.created_at),
  CASE WHEN k.kind = 'stored-files' THEN count(*) ELSE sum(f.size_bytes) END
FROM stored_file f CROSS JOIN (VALUES ('stored-files'), ('stored-bytes')) AS k(kind) GROUP BY 1, 2, 3, 4;

ANALYZE statistic_count;
