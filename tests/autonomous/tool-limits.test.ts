import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentToolRoute from "@/app/api/agents/[id]/tools/[tool]/route";
import { rowsOf } from "@/lib/db";
import { ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { type FallbackStub, startFallbackStub } from "../support/fallback-stub";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL, type RunBody } from "./support";

const ENV = ["VIGIL_WEB_SEARCH_URL", "VIGIL_FALLBACK_TIMEOUT_MS", "VIGIL_TOOLS_TIMEOUT_SECONDS"] as const;

// A tool that runs too long fails its step, with the reason in the run's record, and the run
// goes on to its answer. (That the event loop keeps answering meanwhile is measured around the
// tool alone, in lib/agents/autonomous/tools.test.ts: a whole run also does database work.)
for (const target of appTargets()) {
  describe(`tools that run too long, in an autonomous run on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);
    const saved = Object.fromEntries(ENV.map((key) => [key, process.env[key]]));
    let stub: FallbackStub;

    beforeAll(async () => {
      // A literature search that never answers in time; its own request timeout is longer.
      stub = await startFallbackStub({ "/search": { body: { results: [] }, delayMs: 30_000 } });
      process.env.VIGIL_WEB_SEARCH_URL = `${stub.url}/search`;
      process.env.VIGIL_FALLBACK_TIMEOUT_MS = "60000";
      process.env.VIGIL_TOOLS_TIMEOUT_SECONDS = "literature_search=1";
    });
    afterAll(async () => {
      for (const key of ENV) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      await stub.close();
    });

    const toolRows = async (runId: string) =>
      rowsOf<{
        step_id: string;
        tool_name: string;
        status: string;
        error: string | null;
        attempts: number;
        duration_ms: number;
      }>(
        await suite.database.db.execute(
          sql`select step_id, tool_name, status, error, attempts, duration_ms from tool_executions
            where run_id = ${runId}::uuid`,
        ),
      );

    /** Approves every checkpoint, with what `decide` adds, until the run ends. */
    async function drive(runId: string, decide: (body: RunBody) => Record<string, unknown>) {
      let body = await api.stopped(MEMBER, runId, 60_000);
      for (let stops = 0; body.status === "interrupted" && stops < 30; stops++) {
        const res = await api.decide(api.waitingOn(body).caseId, "approved", decide(body));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        body = await api.stopped(MEMBER, runId, 60_000);
      }
      return { body };
    }

    it("a heavy calculation edited into a tool call fails its step and the run still answers", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const { body } = await drive(runId, (stopped) => {
        const waiting = api.waitingOn(stopped);
        return waiting.type === "tool_execution" && waiting.request.tool_name === "calculator"
          ? { modifications: { tool_parameters: { expression: "det(random([400,400]))" } } }
          : {};
      });
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.outcome).toEqual({ status: "completed", reason: null });
      expect(body.state.answer?.text.length).toBeGreaterThan(0);
      const calc = body.state.todo.find((s) => s.tool === "calculator");
      expect(calc?.status).toBe("failed");
      expect(calc?.note).toMatch(/took longer than 1 s and was stopped/);
      const [row] = (await toolRows(runId)).filter((r) => r.tool_name === "calculator");
      // Stopped at its one second, and not tried again: the same expression would only repeat it.
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row.error).toMatch(/took longer than 1 s/);
    });

    it("a tool that does not answer is cut off at its timeout, not retried, and the run goes on", async () => {
      const granted = await client.put(
        ADMIN,
        agentToolRoute.PUT,
        "/api/agents/fda-regulatory/tools/literature_search",
        { enabled: true },
        { id: "fda-regulatory", tool: "literature_search" },
      );
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "balanced" });
      const plan_steps = [
        { id: "lit-1", description: "Search the literature for glucose monitor recalls", tool: "literature_search" },
        { id: "lit-2", description: "Write the cited answer" },
      ];
      const started = Date.now();
      const { body } = await drive(runId, (stopped) =>
        api.waitingOn(stopped).type === "plan_approval" ? { modifications: { plan_steps } } : {},
      );
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.todo.map((s) => [s.id, s.status])).toEqual([
        ["lit-1", "failed"],
        ["lit-2", "done"],
      ]);
      expect(body.state.todo[0].note).toBe("The tool literature_search did not finish within 1 s and was stopped.");
      expect(body.state.todo[0].react.at(-1)?.observation).toBe(
        "The tool failed after 1 attempt: The tool literature_search did not finish within 1 s and was stopped.",
      );
      expect(await toolRows(runId)).toEqual([
        {
          step_id: "lit-1",
          tool_name: "literature_search",
          status: "failed",
          error: "The tool literature_search did not finish within 1 s and was stopped.",
          attempts: 1,
          duration_ms: expect.any(Number),
        },
      ]);
      // Well short of the searcher's 30 s.
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });
}
