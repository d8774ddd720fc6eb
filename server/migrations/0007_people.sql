-- People and access: a user's primary group, lookups by key prefix, and the group screens' lists.
ALTER TABLE pim_user ADD COLUMN primary_group_id uuid REFERENCES pim_group (id) ON DELETE SET NULL;

CREATE INDEX api_key_prefix_idx ON api_key (key_prefix);
CREATE INDEX group_membership_group_idx ON group_membership (group_id);
CREATE INDEX pim_group_name_idx ON pim_group (lower(name)) WHERE deleted_at IS NULL;
