-- The knowledge base is tenant data: RLS forced like everything else.
SELECT vigil_secure_tenant_table('knowledge_documents');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('knowledge_chunks');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('knowledge_postings');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('knowledge_terms');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('knowledge_stats');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('knowledge_domains');
--> statement-breakpoint
-- The BM25 query reads a query term's postings from this index alone (an index-only scan once
-- VACUUM has marked the pages all-visible): key (tenant, term, chunk), payload (tf, len, domain
-- bits). It doubles as the uniqueness of a posting. Declared here because drizzle cannot say
-- INCLUDE.
CREATE UNIQUE INDEX knowledge_postings_term_idx ON knowledge_postings (tenant_id, term, chunk_id)
  INCLUDE (tf, len, domain_mask);
--> statement-breakpoint
-- Chunk embeddings need pgvector, which a server may not have (retrieval is then BM25 alone and
-- /api/health says "lexical"). The table exists only where the extension does; the application
-- checks for it at run time. The column has no fixed dimension, so any embedding model fits;
-- search filters by the model name stored with each vector.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')
     AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pgvector is available but this role may not create it; retrieval stays lexical';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    CREATE TABLE IF NOT EXISTS knowledge_embeddings (
      chunk_id uuid PRIMARY KEY REFERENCES knowledge_chunks(id) ON DELETE CASCADE,
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE RESTRICT,
      document_id uuid NOT NULL,
      model text NOT NULL,
      embedding vector NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS knowledge_embeddings_model_idx ON knowledge_embeddings (tenant_id, model);
    PERFORM vigil_secure_tenant_table('knowledge_embeddings');
  END IF;
END
$$;
