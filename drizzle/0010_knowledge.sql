CREATE TABLE "knowledge_chunks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"ord" integer NOT NULL,
	"section" text,
	"page" integer,
	"text" text NOT NULL,
	"token_count" integer DEFAULT 0 NOT NULL,
	"char_length" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"format" text NOT NULL,
	"domains" text[] NOT NULL,
	"external_id" text,
	"content_hash" text NOT NULL,
	"byte_size" integer NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_documents_format_check" CHECK ("knowledge_documents"."format" in ('markdown', 'text', 'html', 'pdf')),
	CONSTRAINT "knowledge_documents_domains_check" CHECK (cardinality("knowledge_documents"."domains") between 1 and 16)
);
--> statement-breakpoint
CREATE TABLE "knowledge_domains" (
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"bit" integer NOT NULL,
	CONSTRAINT "knowledge_domains_tenant_id_name_pk" PRIMARY KEY("tenant_id","name"),
	CONSTRAINT "knowledge_domains_bit_check" CHECK ("knowledge_domains"."bit" between 0 and 62)
);
--> statement-breakpoint
CREATE TABLE "knowledge_postings" (
	"tenant_id" uuid NOT NULL,
	"term" text NOT NULL,
	"chunk_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"tf" integer NOT NULL,
	"len" integer NOT NULL,
	"domain_mask" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_stats" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"chunk_count" bigint DEFAULT 0 NOT NULL,
	"total_length" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "knowledge_stats_nonnegative_check" CHECK ("knowledge_stats"."chunk_count" >= 0 and "knowledge_stats"."total_length" >= 0)
);
--> statement-breakpoint
CREATE TABLE "knowledge_terms" (
	"tenant_id" uuid NOT NULL,
	"term" text NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "knowledge_terms_tenant_id_term_pk" PRIMARY KEY("tenant_id","term"),
	CONSTRAINT "knowledge_terms_df_check" CHECK ("knowledge_terms"."df" > 0)
);
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_document_id_knowledge_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_domains" ADD CONSTRAINT "knowledge_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_postings" ADD CONSTRAINT "knowledge_postings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_postings" ADD CONSTRAINT "knowledge_postings_document_id_knowledge_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_stats" ADD CONSTRAINT "knowledge_stats_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_terms" ADD CONSTRAINT "knowledge_terms_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunks_document_ord_uq" ON "knowledge_chunks" USING btree ("document_id","ord");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_documents_hash_uq" ON "knowledge_documents" USING btree ("tenant_id","content_hash");--> statement-breakpoint
CREATE INDEX "knowledge_documents_list_idx" ON "knowledge_documents" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "knowledge_documents_external_idx" ON "knowledge_documents" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_domains_bit_uq" ON "knowledge_domains" USING btree ("tenant_id","bit");--> statement-breakpoint
CREATE INDEX "knowledge_postings_document_idx" ON "knowledge_postings" USING btree ("document_id");