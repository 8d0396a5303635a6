import { sql } from "drizzle-orm";
import { rowsOf, type Tx, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { checkpointsOf } from "./checkpoints-of";
import type { AuditClaim, AuditRunDetail, AuditValidation } from "./contract";
import { hierarchyOf } from "./hierarchy";
import { type AuditReader, auditRunsQuery, contentVisible, type RunRow, toItem } from "./runs-list";
import { TIMELINE_MAX, timelineOf, totalsOf } from "./timeline";

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

async function validationsOf(tx: Tx, runId: string): Promise<AuditValidation[]> {
  const rows = rowsOf<{
    validation_id: string;
    validated_at: Date | string;
    content_type: string;
    content_snippet: string | null;
    is_valid: boolean;
    violations: string[];
    severity: string | null;
    requires_revision: boolean;
    revision_applied: boolean;
    principles_checked: string[];
    principles_failed: string[];
  }>(
    await tx.execute(sql`select validation_id, validated_at, content_type, content_snippet, is_valid, violations,
        severity, requires_revision, revision_applied, principles_checked, principles_failed
      from constitutional_validations where run_id = ${runId} order by validated_at, validation_id`),
  );
  return rows.map((v) => ({
    validationId: v.validation_id,
    validatedAt: iso(v.validated_at),
    contentType: v.content_type,
    contentSnippet: v.content_snippet,
    isValid: v.is_valid,
    violations: v.violations,
    severity: v.severity,
    requiresRevision: v.requires_revision,
    revisionApplied: v.revision_applied,
    principlesChecked: v.principles_checked,
    principlesFailed: v.principles_failed,
  }));
}

/** The answer's claims in order, each with its sources (the evidence rows share the claim's text). */
async function evidenceOf(tx: Tx, runId: string): Promise<AuditClaim[]> {
  const rows = rowsOf<{
    claim_index: number;
    source_index: number;
    claim_text: string;
    claim_type: string;
    citation_number: number;
    primary_source_title: string;
    primary_source_snippet: string;
    primary_source_relevance_score: number | string;
    evidence_level: string | null;
    evidence_confidence: number | string;
    search_method: string;
    secondary_source_count: number;
  }>(
    await tx.execute(sql`select claim_index, source_index, claim_text, claim_type, citation_number,
        primary_source_title, primary_source_snippet, primary_source_relevance_score, evidence_level,
        evidence_confidence, search_method, secondary_source_count
      from evidence_chains where run_id = ${runId} order by claim_index, source_index`),
  );
  const claims: AuditClaim[] = [];
  for (const row of rows) {
    let claim = claims.at(-1);
    if (claim?.claimIndex !== row.claim_index) {
      claim = { claimIndex: row.claim_index, claimText: row.claim_text, claimType: row.claim_type, sources: [] };
      claims.push(claim);
    }
    claim.sources.push({
      sourceIndex: row.source_index,
      citationNumber: row.citation_number,
      title: row.primary_source_title,
      snippet: row.primary_source_snippet,
      relevance: Number(row.primary_source_relevance_score),
      evidenceLevel: row.evidence_level,
      confidence: Number(row.evidence_confidence),
      searchMethod: row.search_method,
      secondarySourceCount: row.secondary_source_count,
    });
  }
  return claims;
}

/**
 * One run as the audit shows it: the run, its trace as a timeline with totals, the sub-agent
 * tree, its checkpoints with the decisions taken on them, the constitutional validations and
 * the evidence behind each claim. A run of another tenant is not found (RLS hides it).
 */
export async function auditRunDetail(reader: AuditReader, runId: string): Promise<AuditRunDetail> {
  return withTenant(reader, async (tx) => {
    const [row] = rowsOf<RunRow>(await tx.execute(auditRunsQuery(sql`r.id = ${runId}`, sql``)));
    if (!row) throw new NotFoundError("Run", { run_id: runId });
    const timeline = await timelineOf(tx, runId);
    return {
      run: {
        ...toItem(reader, row),
        error: row.error,
        input: contentVisible(reader, row) ? row.input : null,
      },
      timeline: timeline.slice(0, TIMELINE_MAX),
      timelineTruncated: timeline.length > TIMELINE_MAX,
      totals: await totalsOf(tx, runId),
      hierarchy: await hierarchyOf(tx, runId),
      checkpoints: await checkpointsOf(tx, runId),
      validations: await validationsOf(tx, runId),
      evidence: await evidenceOf(tx, runId),
    };
  });
}
