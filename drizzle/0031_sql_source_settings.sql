-- The SQL analyst's per-source settings: join graph versions and the domain/display registries.
-- Both rows name their source together with its tenant (a composite key onto data_sources), so a
-- row can never point at another tenant's source; the unique index it needs comes first.
CREATE UNIQUE INDEX "data_sources_tenant_uq" ON "data_sources" USING btree ("id","tenant_id");--> statement-breakpoint
CREATE TABLE "join_graph_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"graph_hash" text NOT NULL,
	"graph" jsonb NOT NULL,
	"overrides" jsonb NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "join_graph_versions_version_check" CHECK ("join_graph_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sql_registries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"schema_name" text NOT NULL,
	"registry" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sql_registries_kind_check" CHECK ("sql_registries"."kind" in ('domain', 'display'))
);
--> statement-breakpoint
ALTER TABLE "join_graph_versions" ADD CONSTRAINT "join_graph_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_graph_versions" ADD CONSTRAINT "join_graph_versions_source_fk" FOREIGN KEY ("source_id","tenant_id") REFERENCES "public"."data_sources"("id","tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sql_registries" ADD CONSTRAINT "sql_registries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sql_registries" ADD CONSTRAINT "sql_registries_source_fk" FOREIGN KEY ("source_id","tenant_id") REFERENCES "public"."data_sources"("id","tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "join_graph_versions_source_version_uq" ON "join_graph_versions" USING btree ("source_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "sql_registries_source_kind_schema_uq" ON "sql_registries" USING btree ("source_id","kind","schema_name");--> statement-breakpoint
SELECT vigil_secure_tenant_table('join_graph_versions');--> statement-breakpoint
SELECT vigil_secure_tenant_table('sql_registries');
