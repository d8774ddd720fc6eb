-- Server settings: configurations (key/value) and the environments of the public search front-ends.
CREATE TABLE pim_configuration (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid       uuid NOT NULL UNIQUE,
  key        text NOT NULL UNIQUE,
  value      text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The switches are one jsonb object (name -> boolean): the front-end's list of facets and columns
-- grows with it, and the server reads them only through the contract's ENVIRONMENT_SWITCHES.
CREATE TABLE pim_environment (
  id              uuid PRIMARY KEY,
  title           text NOT NULL,
  search_index_id uuid REFERENCES search_index (id) ON DELETE SET NULL,
  path            text NOT NULL UNIQUE,
  address         text NOT NULL DEFAULT '',
  about           text NOT NULL DEFAULT '',
  main_text       text NOT NULL DEFAULT '',
  search_label    text NOT NULL DEFAULT '',
  logo_class      text NOT NULL DEFAULT '',
  top_bar_classes text NOT NULL DEFAULT '',
  instructions    text NOT NULL DEFAULT '',
  switches        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
