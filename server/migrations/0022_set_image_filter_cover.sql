-- Counting the matches of a filter of a set's image table (label, width, height) from one index,
-- index-only: a label that most of a 100,000-image set matches, or a size range over a quarter of
-- it, was counted by reading every row of the set from the table (a bitmap heap scan), the larger
-- part of the call. With the filters' columns in the index, and the visibility map set (autovacuum;
-- PgliteUpkeep on PGlite), the count reads the index alone.

CREATE INDEX image_set_image_filter_idx ON image_set_image (set_id) INCLUDE (label_lower, width, height);
