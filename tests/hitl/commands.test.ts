import { beforeAll, describe, expect, it } from "vitest";
import {
  caseHistory,
  caseIdOfRequest,
  DEFAULT_ADAPTERS,
  getCase,
  HITL_LIMITS,
  listReviewQueue,
  provideClarification,
  recordDecision,
  registerAdapterVersion,
  registerDefaultAdapters,
  requestClarification,
  submitCase,
  summarize,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, refusal, rid, submitLgv } from "./support";

for (const target of appTargets()) {
  describe(`HITL commands and queries on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const demo = () => actors(suite.tenants, "demo");
    const acme = () => actors(suite.tenants, "acme");

    beforeAll(async () => {
      const first = await registerDefaultAdapters({ tenantId: suite.tenants.demo });
      expect(first.added.sort()).toEqual([...DEFAULT_ADAPTERS].sort());
      expect((await registerDefaultAdapters({ tenantId: suite.tenants.demo })).added).toEqual([]);
      await registerDefaultAdapters({ tenantId: suite.tenants.acme });
    });

    it("refuses run and interrupt refs from a client (only the server ties a case to a run) and writes nothing", async () => {
      for (const refType of ["run", "interrupt"] as const) {
        const requestId = rid();
        const refused = await refusal(
          submitCase(demo().member, {
            adapter: "lgv_troubleshooting",
            payload: lgvPayload(),
            requestId,
            refs: [{ ref_type: refType, ref_key: "id", ref_value: "someone-elses-run" }],
          }),
        );
        expect(refused).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
        expect(refused.details).toEqual([expect.objectContaining({ path: "refs.0.ref_type" })]);
        expect(await caseIdOfRequest(demo().reviewer, requestId)).toBeNull();
      }
    });

    it("submits a case with refs, an HITL- id, a summary and a pending projection", async () => {
      const requestId = rid();
      const result = await submitCase(demo().member, {
        adapter: "lgv_troubleshooting",
        payload: lgvPayload(),
        requestId,
        refs: [{ ref_type: "ticket", ref_key: "id", ref_value: "ticket-1" }],
      });
      expect(result.caseId).toMatch(/^HITL-[0-9a-f-]{36}$/);
      expect(result.event).toMatchObject({
        type: "submitted",
        seq: 1,
        requestId,
        fromState: null,
        toState: "pending",
        actor: { kind: "operator", id: "demo-member", name: "Erin Expert", role: "member", team: null },
        notes: "",
      });
      expect(result.event.id).toMatch(/^HEV-[0-9a-f-]{36}$/);
      const view = await getCase(demo().reviewer, result.caseId);
      expect(view).toMatchObject({
        adapter: "lgv_troubleshooting",
        schemaVersion: 1,
        createdBy: "demo-member",
        refs: [{ ref_type: "ticket", ref_key: "id", ref_value: "ticket-1" }],
        state: { state: "pending", lastSeq: 1, clarificationRounds: 0, outcome: null },
      });
      expect(view.summary).toBe(summarize("lgv_troubleshooting", lgvPayload()));
      expect(view.summary).toContain("LGV-07");
      expect(Number.isSafeInteger(view.createdAt)).toBe(true);
    });

    it("runs a clarification round and an approval with modifications, with the history in order", async () => {
      const { caseId } = await submitLgv(demo().member);
      await requestClarification(demo().reviewer, caseId, { requestId: rid(), question: "Which aisle?" });
      expect((await getCase(demo().reviewer, caseId)).state).toMatchObject({
        state: "needs_clarification",
        openQuestion: "Which aisle?",
        clarificationRounds: 1,
      });
      await provideClarification(demo().member, caseId, { requestId: rid(), answer: "Aisle 4" });
      const decided = await recordDecision(demo().reviewer, caseId, {
        requestId: rid(),
        outcome: "approved",
        modifications: { proposed_next_action: "Re-survey reflectors in aisles 4 and 5" },
      });
      expect(decided.state).toBe("approved");
      const history = await caseHistory(demo().reviewer, caseId);
      expect(history.map((e) => [e.seq, e.type])).toEqual([
        [1, "submitted"],
        [2, "needs_clarification"],
        [3, "clarification_provided"],
        [4, "decision_recorded"],
      ]);
      expect(history[3]).toMatchObject({
        outcome: "approved",
        modifications: { proposed_next_action: "Re-survey reflectors in aisles 4 and 5" },
        actor: { id: "demo-reviewer", role: "reviewer" },
      });
      expect((await getCase(demo().member, caseId)).state).toMatchObject({
        state: "approved",
        outcome: "approved",
        decidedBy: "demo-reviewer",
        decisionEventId: history[3].id,
        openQuestion: null,
      });
    });

    it("replays a request with the same id and intent, and refuses the id for another intent", async () => {
      const requestId = rid();
      const payload = lgvPayload({ lgv_id: "LGV-11" });
      const first = await submitCase(demo().member, { adapter: "lgv_troubleshooting", payload, requestId });
      const again = await submitCase(demo().member, { adapter: "lgv_troubleshooting", payload, requestId });
      expect(again).toEqual({ ...first, replayed: true });
      const other = await refusal(
        submitCase(demo().member, { adapter: "lgv_troubleshooting", payload: lgvPayload(), requestId }),
      );
      expect(other).toMatchObject({
        kind: "conflict",
        code: "IDEMPOTENCY_CONFLICT",
        details: { request_id: requestId, case_id: first.caseId },
      });

      const decisionId = rid();
      const decided = await recordDecision(demo().reviewer, first.caseId, {
        requestId: decisionId,
        outcome: "rejected",
      });
      const replayed = await recordDecision(demo().reviewer, first.caseId, {
        requestId: decisionId,
        outcome: "rejected",
      });
      expect(replayed).toEqual({ ...decided, replayed: true });
      const flipped = await refusal(
        recordDecision(demo().reviewer, first.caseId, { requestId: decisionId, outcome: "approved" }),
      );
      expect(flipped).toMatchObject({ kind: "conflict", code: "IDEMPOTENCY_CONFLICT" });
      const reused = await refusal(
        requestClarification(demo().reviewer, first.caseId, { requestId: decisionId, question: "Why?" }),
      );
      expect(reused).toMatchObject({ kind: "conflict", code: "IDEMPOTENCY_CONFLICT" });
      expect(await caseHistory(demo().reviewer, first.caseId)).toHaveLength(2);
    });

    it("requires a request_id on every mutation", async () => {
      const { caseId } = await submitLgv(demo().member);
      for (const work of [
        submitCase(demo().member, { adapter: "lgv_troubleshooting", payload: lgvPayload(), requestId: "" }),
        recordDecision(demo().reviewer, caseId, { requestId: undefined as unknown as string, outcome: "approved" }),
        requestClarification(demo().reviewer, caseId, { requestId: " ", question: "?" }),
        provideClarification(demo().member, caseId, { requestId: "x".repeat(201), answer: "!" }),
      ]) {
        expect(await refusal(work)).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
      }
    });

    it("validates payloads against the adapter's active schema", async () => {
      const bad = await refusal(
        submitCase(demo().member, {
          adapter: "lgv_troubleshooting",
          payload: lgvPayload({ lgv_id: 7, extra: true, symptom: undefined }),
          requestId: rid(),
        }),
      );
      expect(bad).toMatchObject({ kind: "unprocessable", code: "PAYLOAD_INVALID" });
      const issues = bad.details as { path: string; keyword: string }[];
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: "/lgv_id", keyword: "type" }),
          expect.objectContaining({ keyword: "required" }),
          expect.objectContaining({ keyword: "additionalProperties" }),
        ]),
      );
      expect(
        await refusal(submitCase(demo().member, { adapter: "nope", payload: {}, requestId: rid() })),
      ).toMatchObject({ kind: "not_found", code: "ADAPTER_NOT_FOUND" });
      expect(
        await refusal(submitCase(demo().member, { adapter: "plan_approval", payload: [1], requestId: rid() })),
      ).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
      const huge = { plan: "x", notes: "y".repeat(HITL_LIMITS.payloadBytes) };
      expect(
        await refusal(submitCase(demo().member, { adapter: "plan_approval", payload: huge, requestId: rid() })),
      ).toMatchObject({ kind: "too_large", code: "PAYLOAD_TOO_LARGE" });
      for (const adapter of [
        "plan_approval",
        "tool_execution",
        "subagent_spawn",
        "critical_decision",
        "final_review",
      ]) {
        expect(await refusal(submitCase(demo().member, { adapter, payload: {}, requestId: rid() }))).toMatchObject({
          code: "PAYLOAD_INVALID",
        });
      }
      // Modifications must keep the payload valid, and only approvals carry them.
      const { caseId } = await submitLgv(demo().member);
      expect(
        await refusal(
          recordDecision(demo().reviewer, caseId, {
            requestId: rid(),
            outcome: "approved",
            modifications: { lgv_id: 3 },
          }),
        ),
      ).toMatchObject({ kind: "unprocessable", code: "PAYLOAD_INVALID" });
      expect(
        await refusal(
          recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "rejected", modifications: { a: 1 } }),
        ),
      ).toMatchObject({ kind: "invalid" });
      expect(
        await refusal(recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "modified" as "approved" })),
      ).toMatchObject({ kind: "invalid" });
      expect(
        await refusal(requestClarification(demo().reviewer, caseId, { requestId: rid(), question: "q".repeat(4001) })),
      ).toMatchObject({ kind: "invalid" });
      expect(await caseHistory(demo().reviewer, caseId)).toHaveLength(1);
    });

    it("validates new cases against the active version; older cases keep theirs", async () => {
      const scope = { tenantId: suite.tenants.acme };
      const v2 = await registerAdapterVersion(
        scope,
        "final_review",
        {
          type: "object",
          properties: { output: { type: "string" }, reviewer_notes: { type: "string" } },
          required: ["output", "reviewer_notes"],
        },
        { activate: true },
      );
      expect(v2).toMatchObject({ version: 2, active: true });
      expect(
        await refusal(
          submitCase(acme().member, { adapter: "final_review", payload: { output: "x" }, requestId: rid() }),
        ),
      ).toMatchObject({ code: "PAYLOAD_INVALID", fields: { schema_version: 2 } });
      const ok = await submitCase(acme().member, {
        adapter: "final_review",
        payload: { output: "x", reviewer_notes: "n" },
        requestId: rid(),
      });
      expect((await getCase(acme().member, ok.caseId)).schemaVersion).toBe(2);

      // Registering the same schema again (a retry) adds no version; a different one does.
      const again = await registerAdapterVersion(scope, "final_review", { ...v2.jsonSchema }, { activate: true });
      expect(again).toMatchObject({ id: v2.id, version: 2, active: true });
      const v3 = await registerAdapterVersion(scope, "final_review", { type: "object" });
      expect(v3).toMatchObject({ version: 3, active: false });
    });

    it("lets only reviewers, admins and the system decide or ask", async () => {
      const { caseId } = await submitLgv(demo().member);
      expect(
        await refusal(recordDecision(demo().member, caseId, { requestId: rid(), outcome: "approved" })),
      ).toMatchObject({ kind: "forbidden", code: "FORBIDDEN" });
      expect(
        await refusal(requestClarification(demo().member, caseId, { requestId: rid(), question: "?" })),
      ).toMatchObject({ kind: "forbidden" });
      const timedOut = await recordDecision(demo().system, caseId, {
        requestId: rid(),
        outcome: "rejected",
        notes: "timeout",
      });
      expect(timedOut.event).toMatchObject({
        actor: { kind: "system", id: "system", role: "system" },
        notes: "timeout",
      });
    });

    it("lists pending cases newest first, a page at a time", async () => {
      const scope = { tenantId: suite.tenants.acme };
      await registerDefaultAdapters(scope);
      const before = await listReviewQueue(acme().reviewer, { adapter: "tool_execution" });
      expect(before).toEqual({ items: [], nextCursor: null });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await submitCase(acme().member, {
          adapter: "tool_execution",
          payload: { tool: `tool-${i}`, arguments: {} },
          requestId: rid(),
        });
        ids.push(r.caseId);
      }
      await recordDecision(acme().reviewer, ids[2], { requestId: rid(), outcome: "approved" });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await listReviewQueue(acme().reviewer, { adapter: "tool_execution", limit: 2, cursor });
        seen.push(...page.items.map((i) => i.id));
        expect(page.items.every((i) => i.state === "pending")).toBe(true);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toEqual([ids[4], ids[3], ids[1], ids[0]]);
      expect(await refusal(listReviewQueue(acme().reviewer, { cursor: "garbage" }))).toMatchObject({ kind: "invalid" });
    });

    it("keeps a tenant's cases invisible to another tenant", async () => {
      const { caseId } = await submitLgv(demo().member);
      expect(await refusal(getCase(acme().admin, caseId))).toMatchObject({ name: "NotFoundError" });
      expect(await refusal(caseHistory(acme().admin, caseId))).toMatchObject({ name: "NotFoundError" });
      expect(
        await refusal(recordDecision(acme().admin, caseId, { requestId: rid(), outcome: "rejected" })),
      ).toMatchObject({ name: "NotFoundError" });
      const queue = await listReviewQueue(acme().admin, { limit: 100 });
      expect(queue.items.map((i) => i.id)).not.toContain(caseId);
      expect((await getCase(demo().reviewer, caseId)).state.state).toBe("pending");
    });
  });
}
