-- A sign-in stays on the address the browser started it at: the redirect URI it was sent with
-- is kept for the code exchange, and the web app's one-time login check is returned with gsid.
-- Sign-ins under way when this runs cannot finish (they lack both); their users log in again.
DELETE FROM oidc_login_state;

ALTER TABLE oidc_login_state
  ADD COLUMN redirect_uri text NOT NULL,
  ADD COLUMN login_check  text;
