import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONVERGENCE } from "@/lib/agents/contract";
import { rowsOf } from "@/lib/db";
import { drainTrace } from "@/lib/trace";
import { appTargets } from "../support/databases";
import { type FallbackStub, startFallbackStub } from "../support/fallback-stub";
import { allEvents } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { type ResearchTenant, researchTenant, runResearch } from "./support";

// A run's life on a knowledge base of its own: clarification that converges by itself, a
// rejected plan that ends the run without research, and the fallback search a run turns on.

const STERILISATION = [
  {
    title: "Steam Sterilisation Handbook",
    content: [
      "# Steam Sterilisation Handbook",
      "",
      "## Cycle validation",
      "",
      "Steam sterilisation of surgical instruments is validated by three consecutive successful autoclave cycles at 134 °C for 3 minutes.",
      "Each validated cycle is documented with its temperature and pressure record.",
    ].join("\n"),
  },
  {
    title: "Autoclave Monitoring Guide",
    content: [
      "# Autoclave Monitoring Guide",
      "",
      "## Biological indicators",
      "",
      "Hospital autoclave cycles for surgical instruments are monitored weekly with biological indicators containing Geobacillus stearothermophilus spores.",
      "A failed indicator stops steam sterilisation until the autoclave is revalidated.",
    ].join("\n"),
  },
];
const QUESTION = "How is steam sterilisation of surgical instruments validated and monitored?";

for (const target of appTargets()) {
  describe(`a research run's life on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let tenant: ResearchTenant;
    let stub: FallbackStub;
    beforeAll(async () => {
      tenant = await researchTenant(suite.database, "sterile", "sterilisation", STERILISATION);
      stub = await startFallbackStub({
        "/search": {
          body: {
            results: [
              {
                title: "Steam sterilisation — WHO manual",
                url: "https://example.org/who-steam-sterilisation",
                snippet:
                  "Steam sterilisation of surgical instruments is validated by physical, chemical and biological monitoring of each autoclave load.",
              },
            ],
          },
        },
      });
    });
    afterAll(async () => {
      await stub.close();
    });
    afterEach(() => {
      delete process.env.VIGIL_WEB_SEARCH_URL;
    });

    it("converges by itself once retrieval is saturated and the question covered, without /end", async () => {
      // One answer: its words are in the corpus too, so coverage stays full while the second
      // iteration finds only passages the first already had.
      const run = await runResearch(tenant, { query: QUESTION }, { answers: ["hospital autoclave cycles"] });
      expect(run.status, JSON.stringify(run.state.hitl_termination_reason)).toBe("completed");
      const s = run.state;
      expect(s.hitl_termination_reason).toBe("convergence");
      // Asked once, answered once (not /end), and never asked again.
      expect(run.asked).toHaveLength(1);
      expect(s.hitl_conversation_history.filter((t) => t.role === "user").map((t) => t.content)).toEqual([
        QUESTION,
        "hospital autoclave cycles",
      ]);
      const last = s.retrieval_history.at(-1);
      if (!last) throw new Error("no retrieval");
      expect(s.retrieval_history).toHaveLength(2);
      expect(last.coverage_score).toBeGreaterThanOrEqual(CONVERGENCE.coverage);
      expect(last.dedup_ratio).toBeGreaterThanOrEqual(CONVERGENCE.dedup);
      expect(last.knowledge_gaps.length).toBeLessThanOrEqual(CONVERGENCE.maxGaps);
      // The first iteration had not converged: everything it found was new to the run.
      expect(s.retrieval_history[0].dedup_ratio).toBeLessThan(CONVERGENCE.dedup);
      // The report carries the corpus' facts, cited.
      const report = s.final_report;
      if (!report) throw new Error("no report");
      expect(report.termination_reason).toBe("convergence");
      expect(report.answer).toMatch(/three consecutive successful autoclave cycles at 134 °C/);
      expect(report.answer).toMatch(/biological indicators/);
      expect(report.sources.every((x) => x.url === undefined)).toBe(true);
    });

    it("a rejected plan ends the run without research", async () => {
      const run = await runResearch(tenant, { query: QUESTION, skipClarification: true }, { plan: "reject" });
      expect(run.status).toBe("completed");
      const s = run.state;
      expect(s.final_report).toBeNull();
      expect(s.task_summaries).toEqual([]);
      expect(s.todo_list?.items.length).toBeGreaterThan(0);
      expect(s.todo_list?.items.some((t) => t.completed)).toBe(false);
      expect(s.primary_context).toEqual([]);
      expect(s.secondary_context).toEqual([]);
      await drainTrace();
      const nodes = rowsOf<{ node_name: string | null; event_type: string }>(
        await suite.database.db.execute(
          sql`select node_name, event_type from execution_trace where run_id = ${run.runId} order by seq`,
        ),
      );
      expect(nodes.some((n) => n.node_name === "execute_task")).toBe(false);
      expect(nodes.some((n) => n.node_name === "synthesize")).toBe(false);
      // The run's outcome says so: its finish event and its trace.
      const finish = (await allEvents(tenant.member, run.runId)).filter((e) => e.type === "finish");
      expect(finish).toHaveLength(1);
      expect((finish[0].payload as { metadata: Record<string, unknown> }).metadata.outcome).toEqual({
        status: "rejected",
        reason: "The research plan was rejected.",
      });
      const rejected = rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${run.runId} and event_data->>'research' = 'plan_rejected'`,
        ),
      );
      expect(rejected).toHaveLength(1);
      expect(rejected[0].event_data.feedback).toBe("Out of scope for this quarter.");
    });

    it("uses the fallback search only when the run turns it on, as tertiary sources with their URL", async () => {
      process.env.VIGIL_WEB_SEARCH_URL = `${stub.url}/search`;
      const before = stub.requests.length;
      const off = await runResearch(tenant, { query: QUESTION, skipClarification: true });
      expect(off.status).toBe("completed");
      expect(stub.requests.length).toBe(before);
      expect(off.state.final_report?.sources.some((x) => x.url)).toBe(false);

      const on = await runResearch(tenant, { query: QUESTION, skipClarification: true, useFallbackSearch: true });
      expect(on.status).toBe("completed");
      expect(stub.requests.length).toBeGreaterThan(before);
      expect(on.state.use_fallback_search).toBe(true);
      const web = on.state.tertiary_context.filter((e) => e.source_type === "web_search");
      expect(web.length).toBeGreaterThan(0);
      expect(web.every((e) => e.url === "https://example.org/who-steam-sterilisation" && e.context_tier === 3)).toBe(
        true,
      );
      const report = on.state.final_report;
      if (!report) throw new Error("no report");
      const source = report.sources.find((x) => x.url === "https://example.org/who-steam-sterilisation");
      expect(source?.tier).toBe(3);
      // The sources panel opens it by its type and address; the tenant's documents are typed as found.
      expect(source?.source_type).toBe("web_search");
      expect(report.sources.filter((x) => !x.url).every((x) => x.source_type !== "web_search")).toBe(true);
      expect(report.sources[0].source_type).toBe("vector_search");
      // Its claim is checked against the snippet as fetched, and the tenant's documents still lead.
      const claim = report.claims.find((c) => c.sources.includes(source?.n ?? -1));
      expect(claim?.verified).toBe(true);
      expect(report.sources[0].url).toBeUndefined();
      expect(on.state.research_context?.metadata.external_sources_used).toBe(true);
      expect(off.state.research_context?.metadata.external_sources_used).toBe(false);
      expect(
        on.state.research_context?.search_queries.flatMap((q) => q.web_search_results ?? []).map((w) => w.url),
      ).toContain("https://example.org/who-steam-sterilisation");
      await drainTrace();
      const used = rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${on.runId} and event_data->>'tool' = 'fallback_search'`,
        ),
      );
      expect(used.length).toBeGreaterThan(0);
    });
  });
}
