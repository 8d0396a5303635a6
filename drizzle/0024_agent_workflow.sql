ALTER TABLE "agents" ADD COLUMN "workflow" text DEFAULT 'ask-expert' NOT NULL;--> statement-breakpoint
-- The two demo agents seeded ahead of their workflows: listed once the server has them.
UPDATE "agents" SET "workflow" = 'sql-analyst' WHERE "slug" = 'data-analyst' AND "workflow" = 'ask-expert';--> statement-breakpoint
UPDATE "agents" SET "workflow" = 'deep-research' WHERE "slug" = 'research-analyst' AND "workflow" = 'ask-expert';
