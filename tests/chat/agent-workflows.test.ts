import { describe, expect, it } from "vitest";
import * as runsRoute from "@/app/api/runs/route";
import { schema } from "@/lib/db";
import { getAgentBySlug, listAgents } from "@/lib/experts";
import { findWorkflow } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { postChat, principal } from "./support";

// An agent is offered only while a workflow that answers for it exists: an agent seeded ahead of
// its workflow (here one for a workflow this server does not have) is not listed, opened,
// chatted with or run.

const WAITING = ["forecaster"];

for (const target of appTargets()) {
  describe(`agents and their workflows on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    it("uses the workflows the server installs", () => {
      expect(findWorkflow("ask-expert")).toBeDefined();
      expect(findWorkflow("sql-analyst")).toBeDefined();
    });

    it("seeds the analysts with workflows of their own, and leaves an agent without its workflow out", async () => {
      await suite.database.db.insert(schema.agents).values({
        tenantId: suite.tenants.demo,
        slug: "forecaster",
        name: "Forecaster",
        domain: "Forecasting",
        description: "Answers through a workflow this server does not have.",
        avatar: "scale",
        systemPrompt: "Forecast.",
        workflow: "forecasting",
      });
      const rows = await suite.database.db.select().from(schema.agents);
      const workflowOf = (slug: string) => rows.find((r) => r.slug === slug)?.workflow;
      expect(workflowOf("data-analyst")).toBe("sql-analyst");
      expect(workflowOf("research-analyst")).toBe("deep-research");
      expect(workflowOf("fda-regulatory")).toBe("ask-expert");
      expect(findWorkflow("deep-research")).toBeDefined();
      for (const slug of WAITING) expect(findWorkflow(workflowOf(slug) as string)).toBeUndefined();

      const listed = (await listAgents({ tenantId: suite.tenants.demo })).map((a) => a.slug);
      expect(listed).toHaveLength(6);
      expect(listed).toEqual(expect.arrayContaining(["data-analyst", "research-analyst"]));
      for (const slug of WAITING) {
        expect(listed).not.toContain(slug);
        await expect(getAgentBySlug({ tenantId: suite.tenants.demo }, slug)).rejects.toMatchObject({
          name: "NotFoundError",
        });
      }
    });

    it("refuses a chat or an autonomous run with them as not found, writing nothing", async () => {
      const member = await principal(suite.tenants.demo);
      const before = await suite.database.db.select().from(schema.runs);
      for (const slug of WAITING) {
        const chat = await postChat(member.auth, { agentId: slug, message: "How many orders shipped last month?" });
        expect(chat.status).toBe(404);
        const run = await call(runsRoute.POST, {
          method: "POST",
          path: "/api/runs",
          headers: member.auth,
          body: { workflow: "autonomous", input: { goal: "Summarise last quarter's revenue.", agentId: slug } },
        });
        expect(run.status).toBe(404);
      }
      expect(await suite.database.db.select().from(schema.runs)).toHaveLength(before.length);
    });

    it("lists such an agent as soon as its workflow is one the product has", async () => {
      await suite.database.db.insert(schema.agents).values({
        tenantId: suite.tenants.demo,
        slug: "second-opinion",
        name: "Second Opinion",
        domain: "Regulatory affairs",
        description: "Answers through the expert workflow.",
        avatar: "scale",
        systemPrompt: "Cite the sources.",
        workflow: "ask-expert",
      });
      const listed = (await listAgents({ tenantId: suite.tenants.demo })).map((a) => a.slug);
      expect(listed).toContain("second-opinion");
    });
  });
}
