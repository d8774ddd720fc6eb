-- Font descriptions: a TrueType or OpenType font file in the file store (named by its
-- stored_file row, so `pim files gc` keeps it) and what is known about the script it renders.
-- The URI identifies the font: unique, and fixed once saved.
CREATE TABLE font_description (
  id                 uuid PRIMARY KEY,
  uri                text NOT NULL UNIQUE,
  name               text NOT NULL,
  type               text NOT NULL DEFAULT '',
  license            text NOT NULL DEFAULT '',
  handwritten        boolean NOT NULL DEFAULT false,
  contains_long_s    boolean NOT NULL DEFAULT false,
  contains_ligatures boolean NOT NULL DEFAULT false,
  roman_script       boolean NOT NULL DEFAULT false,
  serif              boolean NOT NULL DEFAULT false,
  file_id            uuid REFERENCES stored_file (id),
  owner_id           uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX font_description_file_idx ON font_description (file_id);
