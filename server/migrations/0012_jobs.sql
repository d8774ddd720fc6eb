-- Jobs (spec part 2 §2-§4, §7, §9): one durable queue that the built-in worker of every server and
-- remote workers claim from. A claim takes the first queued job of the types the worker runs, by
-- priority (lower first) then age, with FOR UPDATE SKIP LOCKED, and gives it a lease: a random
-- token and an expiry that heartbeats push back. A running job whose lease has expired belonged to
-- a worker that died; the reaper queues it again, or fails it after max_attempts runs. Only the
-- holder of the current token may report on a job, so a worker whose job was cancelled, restarted
-- or reaped is told so and stops.
CREATE TABLE job (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid             uuid NOT NULL UNIQUE,
  -- A name of the contract's JOB_TYPES (append only), not a position.
  type             text NOT NULL,
  state            text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  priority         smallint NOT NULL DEFAULT 50 CHECK (priority BETWEEN 0 AND 100),
  -- The creation payload with its defaults, for the fields the type uses.
  settings         jsonb NOT NULL,
  set_id           uuid REFERENCES document_image_set (id) ON DELETE SET NULL,
  -- Who made it: a user, or an API key (a key owns nothing, so owner_id is then null).
  owner_id         uuid REFERENCES pim_user (id) ON DELETE SET NULL,
  api_key_id       uuid REFERENCES api_key (id) ON DELETE SET NULL,
  wrapper_id       integer REFERENCES job (id) ON DELETE SET NULL,
  progress_done    integer NOT NULL DEFAULT 0 CHECK (progress_done >= 0),
  progress_total   integer CHECK (progress_total >= 0),
  progress_message text,
  error            text,
  -- What the run noted: counts, skipped items, versions of the tools used.
  result           jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The file to download, a stored_file row of its own so `pim files gc` keeps its bytes.
  output_file_id   uuid REFERENCES stored_file (id),
  -- Runs started; after max_attempts runs whose worker died the job fails.
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts     integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  lease_token      uuid,
  lease_expires_at timestamptz,
  -- Who ran it (name, host, versions) and when (timings: queued, started, finished): provenance.
  worker           jsonb,
  queued_at        timestamptz NOT NULL DEFAULT now(),
  started_at       timestamptz,
  finished_at      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT job_lease_while_running CHECK ((state = 'running') = (lease_token IS NOT NULL AND lease_expires_at IS NOT NULL))
);
-- A claim reads the head of each type it runs: one short index descent per type, however many
-- jobs of other types wait (a single index on priority would walk past them).
CREATE INDEX job_queue_by_type ON job (type, priority, id) WHERE state = 'queued';
-- The place of a queued job among all queued ones (jobOrder).
CREATE INDEX job_queue_order ON job (priority, id) WHERE state = 'queued';
CREATE INDEX job_lease_expiry ON job (lease_expires_at) WHERE state = 'running';
CREATE INDEX job_owner_newest ON job (owner_id, id DESC);
CREATE INDEX job_api_key_newest ON job (api_key_id, id DESC);
CREATE INDEX job_set ON job (set_id);
CREATE INDEX job_wrapper ON job (wrapper_id);
CREATE INDEX job_output_file ON job (output_file_id);

-- The P2PaLA and Siamese jobs of their screens: the configuration of one wrapper job, whose state
-- they show.
CREATE TABLE p2pala_job (
  id           uuid PRIMARY KEY,
  wrapper_id   integer NOT NULL UNIQUE REFERENCES job (id) ON DELETE CASCADE,
  config       jsonb NOT NULL,
  network_spec text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE siamese_job (
  id           uuid PRIMARY KEY,
  wrapper_id   integer NOT NULL UNIQUE REFERENCES job (id) ON DELETE CASCADE,
  config       jsonb NOT NULL,
  network_spec text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Which worker asked for jobs of which type, and when last: a type nobody served recently is
-- "waiting for a worker that runs it" rather than silently queued.
CREATE TABLE job_worker_seen (
  type    text NOT NULL,
  worker  text NOT NULL,
  -- Host and versions, as the worker reported them.
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (type, worker)
);
CREATE INDEX job_worker_seen_recent ON job_worker_seen (seen_at);
