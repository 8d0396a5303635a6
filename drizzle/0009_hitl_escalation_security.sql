-- SLA policies are tenant data like the rest of the HITL core.
SELECT vigil_secure_tenant_table('hitl_sla_policies');
--> statement-breakpoint
-- The escalation sweep looks across tenants for open cases whose SLA time has come. It sees ids
-- only; the escalation itself runs inside the case's tenant under row-level security.
CREATE OR REPLACE FUNCTION vigil_due_hitl_escalations(p_now bigint, p_limit integer)
RETURNS TABLE (tenant_id uuid, case_id text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.tenant_id, s.case_id FROM hitl_state s
  WHERE s.next_escalation_at IS NOT NULL AND s.next_escalation_at <= p_now
  ORDER BY s.next_escalation_at
  LIMIT p_limit
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_due_hitl_escalations(bigint, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_due_hitl_escalations(bigint, integer) TO vigil_app;
--> statement-breakpoint
-- Decided cases whose linked run still waits: the decision was stored but the process died
-- before it resumed the run. The recovery sweep resumes them.
CREATE OR REPLACE FUNCTION vigil_decided_cases_awaiting_resume(p_limit integer)
RETURNS TABLE (tenant_id uuid, case_id text, run_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.tenant_id, s.case_id, r.id FROM hitl_state s
  JOIN hitl_case_refs ref ON ref.case_id = s.case_id AND ref.kind = 'run'
  JOIN runs r ON r.id::text = ref.ref_id AND r.tenant_id = s.tenant_id
  WHERE s.state IN ('approved', 'rejected') AND r.status = 'interrupted'
  ORDER BY s.decided_at
  LIMIT p_limit
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_decided_cases_awaiting_resume(integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_decided_cases_awaiting_resume(integer) TO vigil_app;
