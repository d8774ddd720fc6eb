-- Counts that answer a search's hit total and language facet without visiting every match.

-- Documents of an index in a language ('' for none) that hold a term in any field: the size of a
-- term's match set per language, for searches over every field (the screen's).
CREATE TABLE search_term_language_stat (
  index_id uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  term_id  integer NOT NULL REFERENCES search_term (id),
  language text NOT NULL,
  df       integer NOT NULL CHECK (df >= 0),
  PRIMARY KEY (index_id, term_id, language)
);

-- Documents of an index per set named in their set_ids: when a caller may read every set named
-- there, every document of the index is theirs and the counts above are their counts.
CREATE TABLE search_set_stat (
  index_id uuid NOT NULL REFERENCES search_index (id) ON DELETE CASCADE,
  set_id   uuid NOT NULL,
  docs     integer NOT NULL CHECK (docs >= 0),
  PRIMARY KEY (index_id, set_id)
);

-- The documents indexed before this migration: a term counts once per document, in its first field.
INSERT INTO search_term_language_stat (index_id, term_id, language, df)
SELECT d.index_id, p.term_id, coalesce(d.language, ''), count(*)::int
FROM search_posting p JOIN search_document d ON d.id = p.doc_id
WHERE p.field = 0
   OR NOT EXISTS (SELECT 1 FROM search_posting q WHERE q.doc_id = p.doc_id AND q.field < p.field AND q.term_id = p.term_id)
GROUP BY 1, 2, 3;

INSERT INTO search_set_stat (index_id, set_id, docs)
SELECT d.index_id, s.set_id, count(*)::int
FROM search_document d CROSS JOIN LATERAL unnest(d.set_ids) AS s(set_id)
GROUP BY 1, 2;

-- Planner statistics for the new tables (PGlite gathers none by itself).
ANALYZE search_term_language_stat, search_set_stat;
