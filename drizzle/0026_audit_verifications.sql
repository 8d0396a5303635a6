CREATE TABLE "audit_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"verified_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"verified_by" text NOT NULL,
	"status" text NOT NULL,
	"checked" integer NOT NULL,
	"verified_seq" bigint,
	"head_hash" text,
	"first_broken_id" uuid,
	"first_broken_seq" bigint,
	"broken_reason" text,
	"pending" integer DEFAULT 0 NOT NULL,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "audit_verifications_status_check" CHECK ("audit_verifications"."status" in ('ok', 'broken')),
	CONSTRAINT "audit_verifications_broken_check" CHECK (("audit_verifications"."status" = 'broken') = ("audit_verifications"."first_broken_seq" is not null and "audit_verifications"."broken_reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "audit_verifications" ADD CONSTRAINT "audit_verifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_verifications_tenant_idx" ON "audit_verifications" USING btree ("tenant_id","verified_at");--> statement-breakpoint
SELECT vigil_secure_tenant_table('audit_verifications');
