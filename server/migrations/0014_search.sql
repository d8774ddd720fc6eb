-- Full-text search: one search document per image and index, the vocabulary, and postings with
-- BM25 weights ordered for top-k retrieval. Text is analysed in the server (analysis.ts): lower
-- case, marks and long s folded, so the lexemes here are exactly the terms a query looks up.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE search_document (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  index_id       uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  image_id       uuid NOT NULL REFERENCES document_image (id) ON DELETE CASCADE,
  -- The live sets of this index that hold the image: the access check of every search.
  set_ids        uuid[] NOT NULL,
  -- The hit's _source.
  source         jsonb NOT NULL,
  -- Every term with its positions and field (weight A text, B htr, C persons): phrases, AND/NOT,
  -- counts and facets run on it.
  terms          tsvector NOT NULL,
  -- Terms per field (text, htr, persons): BM25's document length.
  lengths        integer[] NOT NULL,
  language       text,
  pagenumber     integer,
  height         integer NOT NULL,
  width          integer NOT NULL,
  ocr_confidence double precision,
  deskew         double precision,
  column_count   integer,
  line_count     integer,
  word_count     integer NOT NULL,
  date           timestamptz NOT NULL,
  label          text NOT NULL,
  UNIQUE (index_id, image_id)
);
CREATE INDEX search_document_image_idx ON search_document (image_id);
CREATE INDEX search_document_terms_idx ON search_document USING gin (terms);
CREATE INDEX search_document_sets_idx ON search_document USING gin (set_ids);
CREATE INDEX search_document_pagenumber_idx ON search_document (pagenumber, id);
CREATE INDEX search_document_language_idx ON search_document (language);

-- The vocabulary of every index: fuzzy and prefix matching look terms up here.
CREATE TABLE search_term (
  id      integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  term    text NOT NULL UNIQUE,
  -- The word as it was first written (lower case, with its diacritics): what suggestions show.
  display text NOT NULL
);
CREATE INDEX search_term_trgm_idx ON search_term USING gin (term gin_trgm_ops);
CREATE INDEX search_term_prefix_idx ON search_term (term text_pattern_ops);

-- Stems of the terms in the languages they were indexed in (snowball), for per-language stemming.
CREATE TABLE search_term_stem (
  config  text NOT NULL,
  stem    text NOT NULL,
  term_id integer NOT NULL REFERENCES search_term (id) ON DELETE CASCADE,
  PRIMARY KEY (config, stem, term_id)
);

-- Document frequency of a term in a field of an index, and the counts BM25 needs per field.
CREATE TABLE search_term_stat (
  index_id uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  term_id  integer NOT NULL REFERENCES search_term (id),
  field    smallint NOT NULL,
  df       integer NOT NULL CHECK (df >= 0),
  PRIMARY KEY (index_id, term_id, field)
);
CREATE TABLE search_field_stat (
  index_id     uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  field        smallint NOT NULL,
  doc_count    bigint NOT NULL CHECK (doc_count >= 0),
  total_length bigint NOT NULL CHECK (total_length >= 0),
  PRIMARY KEY (index_id, field)
);

-- A term in a field of a document: its frequency and BM25 weight without idf,
-- tf·(k1+1) / (tf + k1·(1 − b + b·length/average length)). Read in weight order per term, so the
-- best documents of a term come first (a backward scan) and a search stops once no unseen document can win.
CREATE TABLE search_posting (
  doc_id  bigint NOT NULL REFERENCES search_document (id) ON DELETE CASCADE,
  field   smallint NOT NULL,
  term_id integer NOT NULL,
  tf      integer NOT NULL CHECK (tf > 0),
  weight  real NOT NULL,
  PRIMARY KEY (doc_id, field, term_id)
);
CREATE INDEX search_posting_weight_idx ON search_posting (term_id, field, weight, doc_id);
