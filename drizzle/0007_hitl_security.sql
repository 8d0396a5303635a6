-- The HITL core holds tenant data: RLS forced like everything else.
SELECT vigil_secure_tenant_table('hitl_schema_registry');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('hitl_cases');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('hitl_events');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('hitl_state');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('hitl_case_refs');
--> statement-breakpoint
-- Events are appended, never edited or removed, by the application; a case is immutable once
-- submitted (what changes lives in its events) and so are its references.
REVOKE UPDATE, DELETE ON hitl_events FROM vigil_app;
--> statement-breakpoint
REVOKE UPDATE, DELETE ON hitl_cases FROM vigil_app;
--> statement-breakpoint
REVOKE UPDATE, DELETE ON hitl_case_refs FROM vigil_app;
