CREATE TABLE "sign_in_limits" (
	"subject" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"attempt_id" uuid,
	CONSTRAINT "sign_in_limits_kind_check" CHECK ("sign_in_limits"."kind" in ('account', 'address'))
);
--> statement-breakpoint
CREATE INDEX "sign_in_limits_last_failure_idx" ON "sign_in_limits" USING btree ("last_failure_at");--> statement-breakpoint
-- Sign-in runs as the app role before any tenant is known; the table holds no tenant's data.
GRANT SELECT, INSERT, UPDATE, DELETE ON "sign_in_limits" TO vigil_app;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_via" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
-- Existing keys: the API recorded the caller's user id, which for a key was 'apikey:<id>'; the
-- operator commands recorded 'cli'.
UPDATE "api_keys" SET "created_via" = CASE
	WHEN "created_by" LIKE 'apikey:%' THEN 'api_key'
	WHEN "created_by" = 'cli' THEN 'operator'
	ELSE 'session'
END;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_via_check" CHECK ("api_keys"."created_via" in ('session', 'operator', 'api_key'));--> statement-breakpoint
-- A key minted by a key that is already revoked (at any depth) goes with it.
WITH RECURSIVE "orphaned" ("id") AS (
	SELECT "child"."id" FROM "api_keys" "child"
	JOIN "api_keys" "parent" ON "child"."created_by" = 'apikey:' || "parent"."id"::text
	WHERE "child"."created_via" = 'api_key' AND "parent"."revoked_at" IS NOT NULL
	UNION
	SELECT "child"."id" FROM "api_keys" "child"
	JOIN "orphaned" ON "child"."created_by" = 'apikey:' || "orphaned"."id"::text
	WHERE "child"."created_via" = 'api_key'
)
UPDATE "api_keys" SET "revoked_at" = now()
WHERE "id" IN (SELECT "id" FROM "orphaned") AND "revoked_at" IS NULL;
