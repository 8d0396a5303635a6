CREATE TABLE "data_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"connection_ciphertext" text NOT NULL,
	"connection_display" text NOT NULL,
	"allowed_schemas" text[] DEFAULT '{}'::text[] NOT NULL,
	"row_limit" integer DEFAULT 1000 NOT NULL,
	"statement_timeout_ms" integer DEFAULT 5000 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_tested_at" timestamp (3) with time zone,
	"last_test_result" jsonb,
	"read_only_verified" boolean DEFAULT false NOT NULL,
	CONSTRAINT "data_sources_kind_check" CHECK ("data_sources"."kind" in ('postgres', 'mysql', 'warehouse')),
	CONSTRAINT "data_sources_row_limit_check" CHECK ("data_sources"."row_limit" between 1 and 100000),
	CONSTRAINT "data_sources_timeout_check" CHECK ("data_sources"."statement_timeout_ms" between 100 and 600000)
);
--> statement-breakpoint
ALTER TABLE "data_sources" ADD CONSTRAINT "data_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_sources_tenant_name_uq" ON "data_sources" USING btree ("tenant_id","name");--> statement-breakpoint
SELECT vigil_secure_tenant_table('data_sources');
