import { randomUUID } from "node:crypto";
import type { ResearchPublicState } from "@/lib/agents/contract";
import { answerInterrupt, waitingCheckpointOf } from "@/lib/checkpoints";
import { type Database, schema } from "@/lib/db";
import { recordDecision } from "@/lib/hitl";
import { ingestDocument, maintainKnowledgeIndex } from "@/lib/rag";
import type { KnowledgeLanguage } from "@/lib/rag/contract";
import { getRun, type RunActor, startRun } from "@/lib/runs";
import { newTenant } from "../rag/support";
import { settled } from "../support/runs";

// Research over a knowledge base of the test's own: a fresh tenant with a Research Analyst
// whose domain is the corpus, driven through the same lib calls the API routes make.

export interface CorpusDocument {
  title: string;
  content: string;
  format?: "markdown" | "text";
  externalId?: string;
  language?: KnowledgeLanguage;
}

export interface ResearchTenant {
  tenantId: string;
  agentId: string;
  member: RunActor;
  reviewer: RunActor & { name: string };
  /** Knowledge document id → the external id it was loaded with (or its title). */
  documents: Map<string, string>;
}

/** A new tenant, its Research Analyst reading `domain`, and `docs` ingested (lexical only). */
export async function researchTenant(
  database: Database,
  label: string,
  domain: string,
  docs: CorpusDocument[],
): Promise<ResearchTenant> {
  const tenantId = await newTenant(database, label);
  const [agent] = await database.db
    .insert(schema.agents)
    .values({
      tenantId,
      slug: "research-analyst",
      name: "Research Analyst",
      domain: "Deep research",
      description: "Research over this tenant's documents.",
      avatar: "search",
      systemPrompt: "You are a research analyst.",
      knowledgeDomains: [domain],
      workflow: "deep-research",
    })
    .returning({ id: schema.agents.id });
  const documents = new Map<string, string>();
  for (const d of docs) {
    const { document } = await ingestDocument(
      { tenantId },
      {
        title: d.title,
        format: d.format ?? "markdown",
        content: d.content,
        domains: [domain],
        ...(d.externalId ? { externalId: d.externalId } : {}),
        ...(d.language ? { language: d.language } : {}),
      },
      { createdBy: "seed", embeddings: null },
    );
    documents.set(document.id, d.externalId ?? d.title);
  }
  await maintainKnowledgeIndex(database.db);
  return {
    tenantId,
    agentId: agent.id,
    documents,
    member: { tenantId, userId: `member-${label}`, role: "member" },
    reviewer: { tenantId, userId: `reviewer-${label}`, role: "reviewer", name: "Research Reviewer" },
  };
}

export interface ResearchOutcome {
  runId: string;
  status: string;
  state: ResearchPublicState;
  /** The clarification questions the run asked, one list per stop. */
  asked: string[][];
}

/**
 * Starts a run and drives it: each clarification stop is answered with the next of `answers`
 * (then `/end`), the plan checkpoint is approved or rejected by the tenant's reviewer.
 */
export async function runResearch(
  tenant: ResearchTenant,
  input: Record<string, unknown>,
  options: { answers?: string[]; plan?: "approve" | "reject" } = {},
): Promise<ResearchOutcome> {
  const { runId } = await startRun(tenant.member, {
    workflow: "deep-research",
    input: { agentId: tenant.agentId, ...input },
  });
  const answers = [...(options.answers ?? [])];
  const asked: string[][] = [];
  for (let stops = 0; stops < 20; stops++) {
    const run = await settled(tenant.member, runId, 60_000);
    if (run.status !== "interrupted") {
      return { runId, status: run.status, state: run.state as unknown as ResearchPublicState, asked };
    }
    const waiting = await waitingCheckpointOf(tenant.member, runId);
    if (waiting?.type === "plan_approval") {
      await recordDecision(tenant.reviewer, waiting.caseId, {
        requestId: randomUUID(),
        outcome: options.plan === "reject" ? "rejected" : "approved",
        ...(options.plan === "reject" ? { notes: "Out of scope for this quarter." } : {}),
      });
      continue;
    }
    const pending = run.pendingInterrupts[0]?.value as { kind?: string; questions?: string[] } | undefined;
    if (pending?.kind !== "research_clarification") throw new Error(`unexpected stop: ${JSON.stringify(pending)}`);
    asked.push(pending.questions ?? []);
    await answerInterrupt(tenant.member, runId, { value: { response: answers.shift() ?? "/end" } });
  }
  const run = await getRun(tenant.member, runId);
  throw new Error(`run ${runId} did not finish: ${run.status}`);
}

/** Lower case, accents kept, punctuation and runs of blanks folded: how answer spans are compared. */
export function normalised(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFC")
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}
