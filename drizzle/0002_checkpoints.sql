CREATE TABLE "checkpoint_blobs" (
	"tenant_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"checkpoint_ns" text DEFAULT '' NOT NULL,
	"channel" text NOT NULL,
	"version" text NOT NULL,
	"type" text NOT NULL,
	"blob" "bytea",
	CONSTRAINT "checkpoint_blobs_pkey" PRIMARY KEY("tenant_id","thread_id","checkpoint_ns","channel","version")
);
--> statement-breakpoint
CREATE TABLE "checkpoint_metadata_terms" (
	"tenant_id" uuid NOT NULL,
	"term" text NOT NULL,
	"thread_id" text NOT NULL,
	"checkpoint_ns" text DEFAULT '' NOT NULL,
	"checkpoint_id" text NOT NULL,
	CONSTRAINT "checkpoint_metadata_terms_pkey" PRIMARY KEY("tenant_id","term","thread_id","checkpoint_ns","checkpoint_id")
);
--> statement-breakpoint
CREATE TABLE "checkpoint_threads" (
	"tenant_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkpoint_threads_pkey" PRIMARY KEY("tenant_id","thread_id")
);
--> statement-breakpoint
CREATE TABLE "checkpoint_writes" (
	"tenant_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"checkpoint_ns" text DEFAULT '' NOT NULL,
	"checkpoint_id" text NOT NULL,
	"task_id" text NOT NULL,
	"idx" integer NOT NULL,
	"channel" text NOT NULL,
	"type" text NOT NULL,
	"blob" "bytea" NOT NULL,
	"task_path" text DEFAULT '' NOT NULL,
	CONSTRAINT "checkpoint_writes_pkey" PRIMARY KEY("tenant_id","thread_id","checkpoint_ns","checkpoint_id","task_id","idx")
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"tenant_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"checkpoint_ns" text DEFAULT '' NOT NULL,
	"checkpoint_id" text NOT NULL,
	"parent_checkpoint_id" text,
	"checkpoint" jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkpoints_pkey" PRIMARY KEY("tenant_id","thread_id","checkpoint_ns","checkpoint_id")
);
--> statement-breakpoint
ALTER TABLE "checkpoint_blobs" ADD CONSTRAINT "checkpoint_blobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoint_metadata_terms" ADD CONSTRAINT "checkpoint_metadata_terms_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoint_threads" ADD CONSTRAINT "checkpoint_threads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoint_writes" ADD CONSTRAINT "checkpoint_writes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkpoint_metadata_terms_thread_idx" ON "checkpoint_metadata_terms" USING btree ("tenant_id","thread_id","checkpoint_ns","checkpoint_id");--> statement-breakpoint
CREATE INDEX "checkpoint_threads_activity_idx" ON "checkpoint_threads" USING btree ("tenant_id","last_activity_at");