ALTER TABLE "chat_sessions" ADD COLUMN "data_source_id" uuid;--> statement-breakpoint
ALTER TABLE "data_sources" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_sources_tenant_default_uq" ON "data_sources" USING btree ("tenant_id") WHERE "data_sources"."is_default";