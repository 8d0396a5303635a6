-- Channel values and pending writes of a few KiB stay in their own heap row. By default a row
-- over ~2 KiB is compressed (incompressible data is tried and kept as is) and then cut into
-- TOAST chunks with index entries of their own: a 4 KiB value cost four rows and three index
-- entries to write, and an index lookup per value to read. Rows up to a page stay inline now;
-- larger values are still compressed and moved out of line.
ALTER TABLE checkpoint_blobs SET (toast_tuple_target = 8160);
--> statement-breakpoint
ALTER TABLE checkpoint_writes SET (toast_tuple_target = 8160);
