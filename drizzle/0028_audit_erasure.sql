-- The trace stays append-only for everyone, the owner included, with two narrow exceptions for
-- owner connections: the retention job (vigil.retention_job) may delete rows, as before, and the
-- erasure job (vigil.erasure_job) may rewrite the payload (event_data) of a row chained in hash
-- version 3 or later, whose hash covers each payload field by its digest, and nothing else of it.
CREATE OR REPLACE FUNCTION vigil_trace_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_user <> 'vigil_app' THEN
    IF TG_OP <> 'UPDATE' AND current_setting('vigil.retention_job', true) = 'on' THEN
      RETURN OLD;
    END IF;
    IF TG_OP = 'UPDATE' AND current_setting('vigil.erasure_job', true) = 'on' THEN
      IF OLD.hash_version >= 3 AND (to_jsonb(NEW) - 'event_data') = (to_jsonb(OLD) - 'event_data') THEN
        RETURN NEW;
      END IF;
    END IF;
  END IF;
  RAISE EXCEPTION 'execution_trace is append-only (% refused)', TG_OP USING ERRCODE = '42501';
END
$$;
