-- Documents written from now on hold a lexeme for each two words that follow each other ("w1 w2"),
-- so a phrase is looked up rather than checked by positions. Those written before lack them until
-- the next reindex; phrases are checked by positions while an index has any.
ALTER TABLE search_document ADD COLUMN bigrams boolean NOT NULL DEFAULT false;
CREATE INDEX search_document_without_bigrams_idx ON search_document (index_id) WHERE NOT bigrams;
