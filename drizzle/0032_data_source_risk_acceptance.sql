ALTER TABLE "data_sources" ADD COLUMN "risk_accepted_by" text;--> statement-breakpoint
ALTER TABLE "data_sources" ADD COLUMN "risk_accepted_at" timestamp (3) with time zone;