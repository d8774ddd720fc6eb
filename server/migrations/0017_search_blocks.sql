-- Posting blocks: each term's postings in a field of an index, in document order, packed a block
-- of up to 512 to a row (document gaps, term frequencies, field lengths and languages as
-- varints). About 6 bytes a posting instead of a row of 40 with two index entries, so a search
-- reads a common word's 300,000 postings in a few megabytes and scores them in memory
-- (blocks.ts). search_posting stays for what looks postings up by document.
CREATE TABLE search_block (
  index_id  uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  term_id   integer NOT NULL,
  field     smallint NOT NULL,
  first_doc bigint NOT NULL,
  last_doc  bigint NOT NULL,
  n         integer NOT NULL CHECK (n > 0),
  data      bytea NOT NULL,
  PRIMARY KEY (index_id, term_id, field, first_doc)
);
-- Packed varints do not compress: stored out of line as they are, without a try at it.
ALTER TABLE search_block ALTER COLUMN data SET STORAGE EXTERNAL;

-- The languages of the documents, numbered for the blocks (0: none).
CREATE TABLE search_language (
  id   smallint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL UNIQUE
);

-- The documents written before this migration: they have no blocks until the next reindex (or
-- PgDocumentStore.fillBlocks) writes them. Searches read the blocks only of an index without any.
-- A table of its own, so marking a million documents done is a delete, not an update of each.
CREATE TABLE search_unblocked (
  doc_id   bigint PRIMARY KEY REFERENCES search_document (id) ON DELETE CASCADE,
  index_id uuid NOT NULL
);
CREATE INDEX search_unblocked_index_idx ON search_unblocked (index_id);
INSERT INTO search_unblocked (doc_id, index_id) SELECT id, index_id FROM search_document;

-- Bumped by every write of an index: what a process keeps of its blocks is good while it holds.
CREATE TABLE search_generation (
  index_id   uuid PRIMARY KEY REFERENCES search_index (id) ON DELETE CASCADE,
  generation bigint NOT NULL
);
