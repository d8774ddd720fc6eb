-- Users, sessions, API keys and the sign-in state of the OpenID Connect relying party.
CREATE TABLE pim_user (
  id            uuid PRIMARY KEY,
  name          text NOT NULL,
  email         text,
  persistent_id text UNIQUE,
  google_id     text,
  password_hash text,
  roles         text[] NOT NULL DEFAULT '{}',
  avatar        text,
  disabled      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX pim_user_email_key ON pim_user (lower(email));

CREATE TABLE user_session (
  token_hash   text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES pim_user (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_session_user_idx ON user_session (user_id);
CREATE INDEX user_session_expires_idx ON user_session (expires_at);

CREATE TABLE api_key (
  id         uuid PRIMARY KEY,
  user_name  text NOT NULL,
  key_hash   text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  roles      text[] NOT NULL DEFAULT '{}',
  disabled   boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oidc_login_state (
  state         text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  return_url    text NOT NULL,
  redirect      text,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE login_failure (
  id        bigserial PRIMARY KEY,
  email     text NOT NULL,
  ip        text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failure_email_idx ON login_failure (email, failed_at);

-- Secrets the server generates once and keeps (signing keys, cookie keys).
CREATE TABLE server_secret (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE search_index (
  id         uuid PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE document_image_set (
  id                        uuid PRIMARY KEY,
  name                      text NOT NULL,
  long_name                 text,
  pretty_name               text,
  description               text,
  remote_uri                text,
  search_index_id           uuid REFERENCES search_index (id) ON DELETE SET NULL,
  tag                       text,
  license                   text,
  public_document_image_set boolean NOT NULL DEFAULT false,
  public_data_set           boolean NOT NULL DEFAULT false,
  publish                   boolean NOT NULL DEFAULT false,
  owner_id                  uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  created_at                timestamptz NOT NULL DEFAULT now(),
  updated_at                timestamptz NOT NULL DEFAULT now(),
  deleted_at                timestamptz
);
CREATE INDEX document_image_set_owner_idx ON document_image_set (owner_id);
CREATE INDEX document_image_set_public_idx ON document_image_set (public_document_image_set) WHERE public_document_image_set;
