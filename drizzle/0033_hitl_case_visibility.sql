-- Whose private content a case carries: only they and reviewers see it (lib/hitl/visibility.ts).
-- Existing cases the server opened take it as new ones do: the asker of the consultation a
-- chat_session ref names (on a case the product submitted: clients could set that ref until
-- now), else the principal who started the run a run or run_checkpoint ref names.
ALTER TABLE "hitl_cases" ADD COLUMN "private_to" text;--> statement-breakpoint
UPDATE "hitl_cases" c SET "private_to" = coalesce(
  (SELECT s."user_id" FROM "hitl_case_refs" r JOIN "chat_sessions" s ON s."id"::text = r."ref_value"
    WHERE r."case_id" = c."case_id" AND r."ref_type" = 'chat_session' AND c."submitter_id" = 'system'
    ORDER BY r."created_at_ms", r."ref_value" LIMIT 1),
  (SELECT u."created_by" FROM "hitl_case_refs" r JOIN "runs" u ON u."id"::text = r."ref_value"
    WHERE r."case_id" = c."case_id" AND r."ref_type" IN ('run', 'run_checkpoint')
    ORDER BY r."created_at_ms", r."ref_value" LIMIT 1)
);
