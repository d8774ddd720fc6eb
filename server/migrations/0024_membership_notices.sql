-- A notice (migration 0021) for every change of the memberships of sets, inserts included: the
-- server keeps how many of a set's images a filter of its image table matches (counting a label
-- that most of a 100,000-image set matches reads every entry of the set), and a new image in the
-- set, one taken out, or a changed copy of an image's label or size (0020) changes that number.
-- Its own topic, so the caches of access, which new memberships never make wrong, stay.

CREATE TRIGGER image_set_image_members AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON image_set_image
  FOR EACH STATEMENT EXECUTE FUNCTION pim_notify_change('members');
