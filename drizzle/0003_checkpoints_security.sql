-- Hand-written part of the checkpoint tables. They hold tenant data like any other: RLS forced, app role scoped to its tenant.
SELECT vigil_secure_tenant_table('checkpoint_threads');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('checkpoints');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('checkpoint_blobs');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('checkpoint_writes');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('checkpoint_metadata_terms');
--> statement-breakpoint
-- Channel values and pending writes are mostly a few KiB: MAIN keeps them in the row (compressed
-- when that helps) instead of in the TOAST table, saving a TOAST insert per write and a TOAST
-- index lookup per read. Values too large for a page still go out of line.
ALTER TABLE checkpoint_blobs ALTER COLUMN blob SET STORAGE MAIN;
--> statement-breakpoint
ALTER TABLE checkpoint_writes ALTER COLUMN blob SET STORAGE MAIN;
