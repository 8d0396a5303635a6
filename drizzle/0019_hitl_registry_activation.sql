-- When a schema version last became its adapter's active one (epoch ms; null: never active).
-- The version that is active today has been since at least its registration.
ALTER TABLE "hitl_schema_registry" ADD COLUMN "activated_at" bigint;
--> statement-breakpoint
UPDATE "hitl_schema_registry" SET "activated_at" = "created_at" WHERE "active" AND "activated_at" IS NULL;
