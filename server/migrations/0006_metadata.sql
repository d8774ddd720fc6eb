-- Metadata annotation: field sets (their fields in order, and the values of select fields) and the
-- values annotators store per image and field set.
CREATE TABLE pim_field_set (
  id                   uuid PRIMARY KEY,
  name                 text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  public_pim_field_set boolean NOT NULL DEFAULT false,
  owner_id             uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pim_field_set_owner ON pim_field_set (owner_id);
CREATE INDEX pim_field_set_name ON pim_field_set (lower(name));

CREATE TABLE pim_field (
  id           uuid PRIMARY KEY,
  field_set_id uuid NOT NULL REFERENCES pim_field_set (id) ON DELETE CASCADE,
  -- 0 is 'uri', 1 'datasetUri'; deferred so a save can reorder fields in one transaction.
  position     integer NOT NULL CHECK (position >= 0),
  label        text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 255),
  name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  description  text NOT NULL DEFAULT '' CHECK (char_length(description) <= 255),
  type         text NOT NULL CHECK (type IN ('checkbox', 'date', 'documentimage', 'numeric', 'pimuser', 'script', 'select', 'text', 'notes')),
  copy_value   boolean NOT NULL DEFAULT false,
  CONSTRAINT pim_field_position UNIQUE (field_set_id, position) DEFERRABLE INITIALLY DEFERRED
);

-- The values a select field offers, in order.
CREATE TABLE pim_field_option (
  id         uuid PRIMARY KEY,
  field_id   uuid NOT NULL REFERENCES pim_field (id) ON DELETE CASCADE,
  position   integer NOT NULL CHECK (position >= 0),
  value      text NOT NULL CHECK (char_length(value) BETWEEN 1 AND 255),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pim_field_option_field ON pim_field_option (field_id, position);

-- What is known of one image under one field set. The fixed fields' values are the record's
-- image_uri ('uri') and dataset_uri ('Dataset uri'); the other fields' values are rows of
-- metadata_value. image_id names our own image when image_uri is ours; image_set_id our set and
-- dataset_image_id our image when dataset_uri is that set's or that image's manifest. Access to
-- them decides who sees the record.
CREATE TABLE metadata_record (
  id           uuid PRIMARY KEY,
  field_set_id uuid NOT NULL REFERENCES pim_field_set (id) ON DELETE CASCADE,
  image_uri    text NOT NULL,
  dataset_uri  text NOT NULL,
  dataset_name text,
  image_id     uuid REFERENCES document_image (id) ON DELETE CASCADE,
  image_set_id uuid REFERENCES document_image_set (id) ON DELETE CASCADE,
  dataset_image_id uuid REFERENCES document_image (id) ON DELETE CASCADE,
  created_by   uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  updated_by   uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT metadata_record_image UNIQUE (field_set_id, image_uri)
);
CREATE INDEX metadata_record_dataset ON metadata_record (dataset_uri, field_set_id);
CREATE INDEX metadata_record_created_by ON metadata_record (created_by);
CREATE INDEX metadata_record_updated_by ON metadata_record (updated_by);
CREATE INDEX metadata_record_image_id ON metadata_record (image_id);
CREATE INDEX metadata_record_image_set_id ON metadata_record (image_set_id);
CREATE INDEX metadata_record_dataset_image_id ON metadata_record (dataset_image_id);

CREATE TABLE metadata_value (
  record_id uuid NOT NULL REFERENCES metadata_record (id) ON DELETE CASCADE,
  field_id  uuid NOT NULL REFERENCES pim_field (id) ON DELETE CASCADE,
  value     text NOT NULL,
  PRIMARY KEY (record_id, field_id)
);
CREATE INDEX metadata_value_field ON metadata_value (field_id);
