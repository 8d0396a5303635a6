ALTER TABLE "checkpoint_blobs" DROP CONSTRAINT "checkpoint_blobs_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "checkpoint_writes" DROP CONSTRAINT "checkpoint_writes_tenant_id_tenants_id_fk";
