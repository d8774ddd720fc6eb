-- Change notices: the server keeps who-may-read-what in memory (sessions, API keys, access to
-- images, image facts, set lists), so a cached tile or a list answers without a query. These
-- triggers tell every server process, through NOTIFY on the channel pim_change, which kind of fact
-- changed; each process drops its cached facts of that kind. A process sees its own writes' notices
-- before the write returns (each of its connections listens), others within milliseconds.
--
-- The payload is the topic:
--   auth    sessions, users, API keys (who the caller is, their roles);
--   acl     ACL entries and groups (what a group may do with a set);
--   sets    sets and what their list shows (a search index's name);
--   images  which sets hold an image, its owner and stored files.
-- A new image or a new membership gives more access, never less: the caches hold only what was
-- allowed, so inserts into document_image and image_set_image need no notice (uploads stay quiet).

CREATE FUNCTION pim_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pim_change', TG_ARGV[0]);
  RETURN NULL;
END $$;

CREATE TRIGGER user_session_change AFTER UPDATE OR DELETE OR TRUNCATE ON user_session
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('auth');
CREATE TRIGGER pim_user_change AFTER UPDATE OR DELETE OR TRUNCATE ON pim_user
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('auth');
CREATE TRIGGER api_key_change AFTER UPDATE OR DELETE OR TRUNCATE ON api_key
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('auth');

CREATE TRIGGER acl_entry_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON acl_entry
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('acl');
CREATE TRIGGER pim_group_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pim_group
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('acl');
CREATE TRIGGER group_membership_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_membership
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('acl');
CREATE TRIGGER group_subgroup_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_subgroup
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('acl');

CREATE TRIGGER document_image_set_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON document_image_set
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('sets');
CREATE TRIGGER search_index_change AFTER UPDATE OR DELETE OR TRUNCATE ON search_index
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('sets');

-- Only a change of which set holds which image: the sort keys copied into these rows (0020) change
-- with every image update and say nothing about access.
CREATE TRIGGER image_set_image_change AFTER UPDATE OF set_id, image_id ON image_set_image
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('images');
CREATE TRIGGER image_set_image_removal AFTER DELETE OR TRUNCATE ON image_set_image
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('images');
CREATE TRIGGER document_image_change AFTER UPDATE OF owner_id, file_id, tiled_file_id, width, height, label ON document_image
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('images');
CREATE TRIGGER document_image_removal AFTER DELETE OR TRUNCATE ON document_image
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('images');
