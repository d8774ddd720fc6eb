-- The filters of a set's image table (label, width, height) in every sort's index (migration 0020),
-- so a filtered page is found index-only whatever its sort: the walk along the sort's index tests
-- each entry's label and size in the index, without reading the row from the table, and a size
-- range is counted from the range of its own column's index (a width range reads only the entries
-- of those widths). Each index is made again with the filter columns it lacks included; the
-- covering index of migration 0022 is then redundant: every one of these covers the count.

DROP INDEX image_set_image_filter_idx;

DROP INDEX image_set_image_order_idx;
CREATE INDEX image_set_image_order_idx ON image_set_image (set_id, position, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_label_idx;
CREATE INDEX image_set_image_label_idx ON image_set_image (set_id, label, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_created_idx;
CREATE INDEX image_set_image_created_idx ON image_set_image (set_id, created_at, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_updated_idx;
CREATE INDEX image_set_image_updated_idx ON image_set_image (set_id, updated_at, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_width_idx;
CREATE INDEX image_set_image_width_idx ON image_set_image (set_id, width, image_id) INCLUDE (label_lower, height);
DROP INDEX image_set_image_height_idx;
CREATE INDEX image_set_image_height_idx ON image_set_image (set_id, height, image_id) INCLUDE (label_lower, width);
DROP INDEX image_set_image_page_number_idx;
CREATE INDEX image_set_image_page_number_idx ON image_set_image (set_id, page_number, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_deskew_angle_idx;
CREATE INDEX image_set_image_deskew_angle_idx ON image_set_image (set_id, deskew_angle, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_column_count_idx;
CREATE INDEX image_set_image_column_count_idx ON image_set_image (set_id, column_count, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_lines_count_idx;
CREATE INDEX image_set_image_lines_count_idx ON image_set_image (set_id, lines_count, image_id) INCLUDE (label_lower, width, height);
DROP INDEX image_set_image_confidence_idx;
CREATE INDEX image_set_image_confidence_idx ON image_set_image (set_id, confidence, image_id) INCLUDE (label_lower, width, height);
