-- A person lands in the tenant they joined first (then by name), no longer simply the first by
-- name: Demo Pharma's admin, now an admin of Acme Devices too, still starts in Demo Pharma.
CREATE OR REPLACE FUNCTION vigil_memberships_of(p_user_id text)
RETURNS TABLE (tenant_id uuid, tenant_slug text, tenant_name text, role text, email text, display_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT m.tenant_id, t.slug, t.name, m.role, m.email, m.display_name
  FROM memberships m JOIN tenants t ON t.id = m.tenant_id
  WHERE m.user_id = p_user_id
  ORDER BY m.created_at, t.name
$$;
--> statement-breakpoint
-- Databases seeded before this change: the demo admin joins Acme Devices as an admin, so the
-- demo shows the tenant switcher. Only where both demo tenants and that account exist; a
-- membership already there (or removed on purpose after this ran) is left as it is.
INSERT INTO memberships (tenant_id, user_id, email, display_name, role)
SELECT acme.id, m.user_id, m.email, m.display_name, 'admin'
FROM memberships m
JOIN tenants demo ON demo.id = m.tenant_id AND demo.slug = 'demo'
JOIN tenants acme ON acme.slug = 'acme'
WHERE lower(m.email) = 'admin@demo.local'
ON CONFLICT (tenant_id, user_id) DO NOTHING;
