import { describe, expect, it } from "vitest";
import * as agentToolRoute from "@/app/api/agents/[id]/tools/[tool]/route";
import * as agentToolsRoute from "@/app/api/agents/[id]/tools/route";
import * as toolRoute from "@/app/api/tools/[name]/route";
import * as toolsRoute from "@/app/api/tools/route";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

interface ToolItem {
  name: string;
  risk_level: string;
  category: string;
  enabled: boolean;
  granted?: boolean;
}

// The per-tenant tool registry: admins set a tool's risk or switch it off, and enable or
// disable tools per agent; runs plan and gate with what they set.
for (const target of appTargets()) {
  describe(`the tool registry on ${target.name}`, () => {
    seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);

    it("lists the tools with category and risk, and lets only admins change them", async () => {
      const listed = await client.get(MEMBER, toolsRoute.GET, "/api/tools");
      expect(listed.status).toBe(200);
      const items = listed.body.items as ToolItem[];
      expect(items.map((t) => [t.name, t.category, t.risk_level])).toEqual(
        expect.arrayContaining([
          ["knowledge_search", "rag", "low"],
          ["calculator", "calculation", "low"],
          ["ask_expert", "agent", "medium"],
        ]),
      );
      const denied = await client.put(
        MEMBER,
        toolRoute.PUT,
        "/api/tools/calculator",
        { risk_level: "high" },
        { name: "calculator" },
      );
      expect(denied.status).toBe(403);
      const bad = await client.put(
        ADMIN,
        toolRoute.PUT,
        "/api/tools/calculator",
        { risk_level: "extreme" },
        { name: "calculator" },
      );
      expect(bad.status).toBe(400);
      const unknown = await client.put(ADMIN, toolRoute.PUT, "/api/tools/rm_rf", { enabled: false }, { name: "rm_rf" });
      expect(unknown.status).toBe(404);
      const after = await client.get(MEMBER, toolsRoute.GET, "/api/tools");
      expect((after.body.items as ToolItem[]).find((t) => t.name === "calculator")?.risk_level).toBe("low");
    });

    it("a tool the admin rates high risk is asked about at the permissive level, a low-risk one is not; a tool taken from an agent is not planned", async () => {
      const set = await client.put(
        ADMIN,
        toolRoute.PUT,
        "/api/tools/calculator",
        { risk_level: "high" },
        { name: "calculator" },
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.tool).toMatchObject({ name: "calculator", risk_level: "high", enabled: true });
      // Its own time limit: kept by the next change of another field, and shown at checkpoint 2.
      expect(set.body.tool).toMatchObject({ timeout_seconds: 60, timeout_set: false });
      const timed = await client.put(
        ADMIN,
        toolRoute.PUT,
        "/api/tools/calculator",
        { timeout_seconds: 7 },
        { name: "calculator" },
      );
      expect(timed.body.tool).toMatchObject({ risk_level: "high", timeout_seconds: 7, timeout_set: true });
      const tooLong = await client.put(
        ADMIN,
        toolRoute.PUT,
        "/api/tools/calculator",
        { timeout_seconds: 0 },
        { name: "calculator" },
      );
      expect(tooLong.status).toBe(400);
      const off = await client.put(
        ADMIN,
        agentToolRoute.PUT,
        "/api/agents/fda-regulatory/tools/ask_expert",
        { enabled: false },
        { id: "fda-regulatory", tool: "ask_expert" },
      );
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      expect(off.body.tool).toMatchObject({ name: "ask_expert", granted: false });
      const tools = await client.get(MEMBER, agentToolsRoute.GET, "/api/agents/fda-regulatory/tools", {
        id: "fda-regulatory",
      });
      expect(
        (tools.body.items as ToolItem[])
          .filter((t) => t.granted)
          .map((t) => t.name)
          .sort(),
      ).toEqual(["calculator", "knowledge_search"]);

      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "permissive" });
      const asked: { type: string; tool?: unknown }[] = [];
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted") {
        const waiting = api.waitingOn(body);
        asked.push({ type: waiting.type, tool: waiting.request.tool_name });
        if (waiting.request.tool_name === "calculator") expect(waiting.request.timeout_seconds).toBe(7);
        await api.decide(waiting.caseId, "approved");
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.todo.filter((s) => s.kind === "delegate").map((s) => s.description)).toEqual([]);
      expect(asked).toEqual([
        { type: "plan_approval", tool: undefined },
        { type: "tool_execution", tool: "calculator" },
        { type: "critical_decision", tool: undefined },
        { type: "final_review", tool: undefined },
      ]);
      // Another tenant's admin cannot reach this tenant's agents.
      const outsider = await client.put(
        ACME_ADMIN,
        agentToolRoute.PUT,
        "/api/agents/fda-regulatory/tools/calculator",
        { enabled: false },
        { id: "fda-regulatory", tool: "calculator" },
      );
      expect(outsider.status).toBe(404);
    });
  });
}
