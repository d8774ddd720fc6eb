-- What the embedded OpenID provider keeps between requests (interactions, its sessions, grants,
-- authorization codes): in the database, so any server process can continue a sign-in that
-- another one started, and a restart does not break sign-ins under way.
CREATE TABLE oidc_provider_state (
  model      text NOT NULL,
  id         text NOT NULL,
  payload    jsonb NOT NULL,
  grant_id   text,
  uid        text,
  user_code  text,
  expires_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_provider_state_grant_idx ON oidc_provider_state (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_provider_state_uid_idx ON oidc_provider_state (uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_provider_state_expires_idx ON oidc_provider_state (expires_at);

-- The sign-in rate limit also counts failures per client address.
CREATE INDEX login_failure_ip_idx ON login_failure (ip, failed_at);
CREATE INDEX oidc_login_state_created_idx ON oidc_login_state (created_at);
