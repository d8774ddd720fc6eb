-- The recognition, layout and similarity models of the model screens (spec part 2 §2, §3, §7): one
-- table for the eight kinds, each model a file of the store (a stored_file row of its own, so
-- `pim files gc` never takes it) with a label, an owner and the properties read from the model's
-- own configuration. public_model says whether everyone signed in sees it: the kinds without a
-- public/private switch are always shared; Loghi HTR and Laypa models start private.
CREATE TABLE pim_model (
  id           uuid PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('kraken', 'tesseract4', 'loghihtr', 'loghilinedetection', 'p2pala', 'pylaia', 'siamesenetwork', 'laypa')),
  label        text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 255),
  -- An ISO 639-3 code, for the kinds that are for one language (Kraken, Tesseract 4).
  language     text CHECK (language ~ '^[a-z]{3}$'),
  public_model boolean NOT NULL DEFAULT false,
  owner_id     uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  file_id      uuid NOT NULL REFERENCES stored_file (id),
  properties   jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT pim_model_shared_kinds CHECK (public_model OR kind IN ('loghihtr', 'laypa'))
);
CREATE INDEX pim_model_kind_created ON pim_model (kind, created_at DESC, id);
CREATE INDEX pim_model_kind_label ON pim_model (kind, lower(label), id);
CREATE INDEX pim_model_owner ON pim_model (owner_id);
CREATE INDEX pim_model_file ON pim_model (file_id);
