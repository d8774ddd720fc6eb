-- Files, document images, the set hierarchy, transcriptions, groups and ACL entries.

-- Content-addressed: the bytes live in the data dir under their SHA-256; a row names them.
CREATE TABLE stored_file (
  id            uuid PRIMARY KEY,
  sha256        text NOT NULL,
  size_bytes    bigint NOT NULL,
  media_type    text NOT NULL,
  original_name text NOT NULL,
  owner_id      uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stored_file_sha256_idx ON stored_file (sha256);

CREATE TABLE document_image (
  id                 uuid PRIMARY KEY,
  file_id            uuid NOT NULL REFERENCES stored_file (id),
  label              text NOT NULL,
  width              integer NOT NULL CHECK (width > 0),
  height             integer NOT NULL CHECK (height > 0),
  page_number        integer,
  source_pdf_file_id uuid REFERENCES stored_file (id),
  tiled_file_id      uuid REFERENCES stored_file (id),
  remote_uri         text,
  broken             boolean NOT NULL DEFAULT false,
  publish            boolean NOT NULL DEFAULT false,
  ead_id             text,
  deskew_angle       double precision,
  column_count       integer,
  lines_count        integer,
  confidence         double precision,
  language_best      text,
  owner_id           uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_image_owner_idx ON document_image (owner_id);
CREATE INDEX document_image_label_idx ON document_image (label);

-- The hierarchy: a set holds images and sub-sets, each in its own order.
CREATE TABLE image_set_image (
  set_id   uuid NOT NULL REFERENCES document_image_set (id) ON DELETE CASCADE,
  image_id uuid NOT NULL REFERENCES document_image (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (set_id, image_id)
);
CREATE INDEX image_set_image_image_idx ON image_set_image (image_id);
CREATE INDEX image_set_image_order_idx ON image_set_image (set_id, position);

CREATE TABLE image_set_subset (
  parent_id uuid NOT NULL REFERENCES document_image_set (id) ON DELETE CASCADE,
  child_id  uuid NOT NULL REFERENCES document_image_set (id) ON DELETE CASCADE,
  position  integer NOT NULL,
  PRIMARY KEY (parent_id, child_id),
  CHECK (parent_id <> child_id)
);
CREATE INDEX image_set_subset_child_idx ON image_set_subset (child_id);

-- Files uploaded into a set that are not images themselves (PDFs, XML).
CREATE TABLE image_set_file (
  set_id  uuid NOT NULL REFERENCES document_image_set (id) ON DELETE CASCADE,
  file_id uuid NOT NULL REFERENCES stored_file (id),
  kind    text NOT NULL CHECK (kind IN ('pdf', 'xml')),
  PRIMARY KEY (set_id, file_id)
);

CREATE TABLE transcription (
  id             uuid PRIMARY KEY,
  image_id       uuid NOT NULL REFERENCES document_image (id) ON DELETE CASCADE,
  format         text NOT NULL,
  source_file_id uuid REFERENCES stored_file (id),
  transcriber    text,
  language       text,
  version        text,
  analyzed       timestamptz,
  params         jsonb,
  status         text NOT NULL DEFAULT 'done',
  clean_text     text NOT NULL,
  layout         jsonb NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transcription_image_idx ON transcription (image_id);

CREATE TABLE pim_group (
  id         uuid PRIMARY KEY,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE TABLE group_membership (
  id       uuid PRIMARY KEY,
  group_id uuid NOT NULL REFERENCES pim_group (id) ON DELETE CASCADE,
  user_id  uuid NOT NULL REFERENCES pim_user (id) ON DELETE CASCADE,
  role     text NOT NULL,
  UNIQUE (group_id, user_id, role)
);
CREATE INDEX group_membership_user_idx ON group_membership (user_id);

CREATE TABLE group_subgroup (
  parent_id uuid NOT NULL REFERENCES pim_group (id) ON DELETE CASCADE,
  child_id  uuid NOT NULL REFERENCES pim_group (id) ON DELETE CASCADE,
  PRIMARY KEY (parent_id, child_id),
  CHECK (parent_id <> child_id)
);
CREATE INDEX group_subgroup_child_idx ON group_subgroup (child_id);

-- Grants a permission on a subject (an image set) to the members of a group with a role.
CREATE TABLE acl_entry (
  id         uuid PRIMARY KEY,
  subject_id uuid NOT NULL,
  group_id   uuid NOT NULL REFERENCES pim_group (id) ON DELETE CASCADE,
  role       text NOT NULL,
  permission text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (subject_id, group_id, role, permission)
);
CREATE INDEX acl_entry_subject_idx ON acl_entry (subject_id);
