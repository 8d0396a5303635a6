-- The Mode 3 design's can_resume_from: true while the checkpoint waits, false once decided.
ALTER TABLE "hitl_checkpoints" ADD COLUMN "can_resume_from" boolean DEFAULT true NOT NULL;