-- Roles, grants and row-level security. Application queries run as vigil_app, a role that owns
-- nothing and cannot bypass RLS; the owner connection is for migrations and the few
-- SECURITY DEFINER lookups below that must work before a tenant is known.
CREATE EXTENSION IF NOT EXISTS pgcrypto;
--> statement-breakpoint
-- pgvector is optional: a server without it runs retrieval lexically (see /api/health).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vigil_app') THEN
    CREATE ROLE vigil_app NOLOGIN NOBYPASSRLS;
  END IF;
  IF NOT pg_has_role(current_user, 'vigil_app', 'MEMBER') THEN
    EXECUTE format('GRANT vigil_app TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO vigil_app;
--> statement-breakpoint
-- An unset or reset setting reads as '' (not NULL) once a transaction has touched it.
CREATE OR REPLACE FUNCTION vigil_current_tenant() RETURNS uuid
LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;
--> statement-breakpoint
-- Every tenant-scoped table calls this from its migration: RLS enabled and forced, one
-- isolation policy for the app role, full access for the owner (migrations, seed, retention).
CREATE OR REPLACE FUNCTION vigil_secure_tenant_table(tbl regclass, tenant_column text DEFAULT 'tenant_id')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO vigil_app USING (%I = vigil_current_tenant()) WITH CHECK (%I = vigil_current_tenant())',
    tbl, tenant_column, tenant_column);
  EXECUTE format('DROP POLICY IF EXISTS owner_access ON %s', tbl);
  EXECUTE format('CREATE POLICY owner_access ON %s TO %I USING (true) WITH CHECK (true)', tbl, current_user);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO vigil_app', tbl);
END
$$;
--> statement-breakpoint
SELECT vigil_secure_tenant_table('tenants', 'id');
--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE ON tenants FROM vigil_app;
--> statement-breakpoint
SELECT vigil_secure_tenant_table('memberships');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('api_keys');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('agents');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('chat_sessions');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('chat_messages');
--> statement-breakpoint
-- A signed-in person's tenants, looked up before any tenant is chosen.
CREATE OR REPLACE FUNCTION vigil_memberships_of(p_user_id text)
RETURNS TABLE (tenant_id uuid, tenant_slug text, tenant_name text, role text, email text, display_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT m.tenant_id, t.slug, t.name, m.role, m.email, m.display_name
  FROM memberships m JOIN tenants t ON t.id = m.tenant_id
  WHERE m.user_id = p_user_id
  ORDER BY t.name
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_memberships_of(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_memberships_of(text) TO vigil_app;
--> statement-breakpoint
-- An API key names its tenant only through its hash. last_used_at is refreshed at most once a
-- minute so that a busy key does not turn every read into a write.
CREATE OR REPLACE FUNCTION vigil_resolve_api_key(p_key_hash text)
RETURNS TABLE (key_id uuid, key_name text, tenant_id uuid, tenant_slug text, tenant_name text, role text, created_by text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE api_keys k SET last_used_at = now()
  WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL
    AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute');
  RETURN QUERY
    SELECT k.id, k.name, k.tenant_id, t.slug, t.name, k.role, k.created_by
    FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
    WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_resolve_api_key(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_resolve_api_key(text) TO vigil_app;
--> statement-breakpoint
-- Operator tools (the API key command) name a tenant by its slug.
CREATE OR REPLACE FUNCTION vigil_tenant_by_slug(p_slug text)
RETURNS TABLE (tenant_id uuid, tenant_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.name FROM tenants t WHERE t.slug = p_slug
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_tenant_by_slug(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_tenant_by_slug(text) TO vigil_app;
--> statement-breakpoint
-- Supabase mode: people are invited by email (user_id 'invite:<email>') and claim their
-- memberships the first time they sign in with a confirmed address.
CREATE OR REPLACE FUNCTION vigil_claim_invitations(p_user_id text, p_email text)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE claimed integer;
BEGIN
  UPDATE memberships m SET user_id = p_user_id
  WHERE m.user_id = 'invite:' || lower(p_email)
    AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.user_id = p_user_id AND o.tenant_id = m.tenant_id);
  GET DIAGNOSTICS claimed = ROW_COUNT;
  RETURN claimed;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_claim_invitations(text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_claim_invitations(text, text) TO vigil_app;
