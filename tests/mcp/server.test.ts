import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import type { Role } from "@/lib/access";
import { caseIdOfRequest, registerDefaultAdapters } from "@/lib/hitl";
import { captureLogs } from "@/lib/log";
import { handleMcpRequest } from "@/lib/mcp";
import { createApiKey } from "@/lib/tenancy";
import { lgvPayload, rid } from "../hitl/support";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { type SeededTenants, seededDatabase } from "../support/seeded";
import { callTool, connectClient, DISPLAY, decisionArgs, lgvSubmission, MCP_URL, postRaw, routeFetch } from "./support";

const TOOLS = [
  "activate_adapter_schema",
  "get_case",
  "get_case_history",
  "list_cases",
  "list_review_queue",
  "provide_clarification",
  "record_decision",
  "register_adapter_schema",
  "request_clarification",
  "submit_case",
  "supersede_decision",
];
const MUTATIONS = [
  "activate_adapter_schema",
  "provide_clarification",
  "record_decision",
  "register_adapter_schema",
  "request_clarification",
  "submit_case",
  "supersede_decision",
];

for (const target of appTargets()) {
  describe(`MCP server on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const keys = {} as Record<"member" | "reviewer" | "admin" | "acmeReviewer", { key: string; userId: string }>;
    const clients = {} as Record<keyof typeof keys, Client>;

    async function keyFor(tenant: keyof SeededTenants, role: Role) {
      const created = await createApiKey(
        { tenantId: suite.tenants[tenant] },
        { name: `${role} agent`, role, createdBy: "test" },
      );
      return { key: created.key, userId: `apikey:${created.id}` };
    }

    beforeAll(async () => {
      await registerDefaultAdapters({ tenantId: suite.tenants.demo });
      await registerDefaultAdapters({ tenantId: suite.tenants.acme });
      keys.member = await keyFor("demo", "member");
      keys.reviewer = await keyFor("demo", "reviewer");
      keys.admin = await keyFor("demo", "admin");
      keys.acmeReviewer = await keyFor("acme", "reviewer");
      for (const name of Object.keys(keys) as (keyof typeof keys)[])
        clients[name] = await connectClient(keys[name].key);
    });

    afterAll(async () => {
      for (const client of Object.values(clients)) await client?.close();
    });

    async function submit(payload: Record<string, unknown> = lgvPayload()) {
      const answer = await callTool(clients.member, "submit_case", lgvSubmission({ payload }));
      expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
      return answer.body.case_id as string;
    }

    it("lists the design's ten tools and supersede_decision, each with an input schema; every mutation requires request_id", async () => {
      const { tools } = await clients.member.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.description?.length).toBeGreaterThan(20);
        const required = (tool.inputSchema.required ?? []) as string[];
        expect(required.includes("request_id"), tool.name).toBe(MUTATIONS.includes(tool.name));
      }
      const submitTool = tools.find((t) => t.name === "submit_case");
      expect(submitTool?.inputSchema.required).toEqual(
        expect.arrayContaining(["adapter_id", "case_type", "title", "payload", "submitter", "request_id"]),
      );
      expect(submitTool?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
      expect(tools.find((t) => t.name === "get_case")?.annotations).toMatchObject({ readOnlyHint: true });
      const decision = tools.find((t) => t.name === "record_decision");
      expect(decision?.inputSchema.properties?.decision).toMatchObject({ enum: ["approved", "rejected"] });
    });

    it("runs a case end to end: submit, ask, answer, approve, read it back", async () => {
      const ticket = { ref_type: "ticket", ref_key: "id", ref_value: "ticket-4711" };
      const submitted = await callTool(clients.member, "submit_case", lgvSubmission({ refs: [ticket] }));
      expect(submitted).toMatchObject({
        isError: false,
        body: {
          status: "success",
          current_state: "pending",
          replayed: false,
          event: { event_type: "submitted", seq: 1 },
        },
      });
      const caseId = submitted.body.case_id as string;
      expect(caseId).toMatch(/^HITL-/);

      const queue = await callTool(clients.reviewer, "list_review_queue", { adapter_id: "lgv_troubleshooting" });
      expect((queue.body.items as { case_id: string }[]).map((i) => i.case_id)).toContain(caseId);

      const asked = await callTool(clients.reviewer, "request_clarification", {
        case_id: caseId,
        question: "Was the reflector survey done after the racking change?",
        notes: "",
        actor: DISPLAY.reviewer,
        request_id: rid("ask"),
      });
      expect(asked.body).toMatchObject({ status: "success", case_id: caseId, current_state: "needs_clarification" });

      const pending = await callTool(clients.member, "get_case", { case_id: caseId });
      expect(pending.body).toMatchObject({
        status: "success",
        case: {
          case_id: caseId,
          state: { current_state: "needs_clarification", open_question: expect.stringContaining("reflector") },
        },
      });

      const answered = await callTool(clients.member, "provide_clarification", {
        case_id: caseId,
        answer: "No, the last survey predates the change.",
        notes: "",
        actor: DISPLAY.member,
        request_id: rid("answer"),
      });
      expect(answered.body).toMatchObject({ status: "success", current_state: "pending" });

      const decided = await callTool(
        clients.reviewer,
        "record_decision",
        decisionArgs(caseId, "approved", { notes: "Survey first, then re-run the route." }),
      );
      expect(decided.body).toMatchObject({
        status: "success",
        current_state: "approved",
        event: {
          event_type: "decision_recorded",
          decision_outcome: "approved",
          notes: "Survey first, then re-run the route.",
          actor_id: keys.reviewer.userId,
          actor_role: DISPLAY.reviewer.role,
        },
      });
      // The role that authorised the decision is the key's, recorded beside the display role.
      const decisionJson = JSON.parse((decided.body.event as { event_json: string }).event_json);
      expect(decisionJson.actor).toMatchObject({ id: keys.reviewer.userId, principal_role: "reviewer" });

      const final = await callTool(clients.member, "get_case", { case_id: caseId });
      expect(final.body.case).toMatchObject({
        case_id: caseId,
        adapter_id: "lgv_troubleshooting",
        payload: lgvPayload(),
        refs: [ticket],
        submitter_id: keys.member.userId,
        state: {
          current_state: "approved",
          active_decision_outcome: "approved",
          decided_by: keys.reviewer.userId,
        },
      });

      const history = await callTool(clients.reviewer, "get_case_history", { case_id: caseId });
      expect(history.body).toMatchObject({ status: "success", case_id: caseId, count: 4 });
      const events = history.body.items as { event_type: string; actor_id: string; seq: number }[];
      expect(events.map((e) => [e.seq, e.event_type, e.actor_id])).toEqual([
        [1, "submitted", keys.member.userId],
        [2, "needs_clarification", keys.reviewer.userId],
        [3, "clarification_provided", keys.member.userId],
        [4, "decision_recorded", keys.reviewer.userId],
      ]);
      expect(final.body.history).toEqual(history.body.items);
    });

    it("refuses a member's decision with FORBIDDEN and leaves the case pending", async () => {
      const caseId = await submit();
      const refused = await callTool(
        clients.member,
        "record_decision",
        decisionArgs(caseId, "approved", { actor: DISPLAY.member }),
      );
      expect(refused).toEqual({
        isError: true,
        body: {
          status: "error",
          code: "FORBIDDEN",
          message: expect.any(String),
          details: { requested_action: "record_decision" },
        },
      });
      const read = await callTool(clients.reviewer, "get_case", { case_id: caseId });
      const history = read.body.history as { event_id: string }[];
      expect(history).toHaveLength(1);
      expect(read.body.case).toMatchObject({
        state: { current_state: "pending", last_event_id: history[0].event_id },
      });
    });

    it("answers the first decision to a retry with the same request_id, and ALREADY_TERMINAL to a second decision", async () => {
      const caseId = await submit();
      const args = decisionArgs(caseId, "rejected", { notes: "Wrong site." });
      const first = await callTool(clients.reviewer, "record_decision", args);
      const retry = await callTool(clients.reviewer, "record_decision", args);
      expect(retry.body).toMatchObject({ status: "success", replayed: true, current_state: "rejected" });
      expect((retry.body.event as { event_id: string }).event_id).toBe(
        (first.body.event as { event_id: string }).event_id,
      );
      const second = await callTool(
        clients.admin,
        "record_decision",
        decisionArgs(caseId, "approved", { actor: DISPLAY.admin }),
      );
      expect(second.isError).toBe(true);
      expect(second.body).toMatchObject({
        status: "error",
        code: "ALREADY_TERMINAL",
        details: { decision: { decision_outcome: "rejected", actor_id: keys.reviewer.userId, notes: "Wrong site." } },
      });
    });

    it("refuses a payload that does not match the adapter's schema with PAYLOAD_INVALID and the failing fields", async () => {
      const { symptom: _dropped, ...withoutSymptom } = lgvPayload();
      const refused = await callTool(
        clients.member,
        "submit_case",
        lgvSubmission({ payload: { ...withoutSymptom, services_checked: "navigation" } }),
      );
      expect(refused.isError).toBe(true);
      expect(refused.body).toMatchObject({
        status: "error",
        code: "PAYLOAD_INVALID",
        adapter_id: "lgv_troubleshooting",
        schema_version: 1,
      });
      const issues = refused.body.details as { path: string; keyword: string }[];
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ keyword: "required" }),
          expect.objectContaining({ path: "/services_checked", keyword: "type" }),
        ]),
      );
      expect(Object.keys(refused.body).sort()).toEqual([
        "adapter_id",
        "code",
        "details",
        "message",
        "schema_version",
        "status",
      ]);

      const unknown = await callTool(
        clients.member,
        "submit_case",
        lgvSubmission({ adapter_id: "no_such_adapter", payload: {} }),
      );
      expect(unknown.body).toMatchObject({ status: "error", code: "ADAPTER_NOT_FOUND" });
    });

    it("refuses a mutation without request_id in its input schema, before the core is called", async () => {
      const caseId = await submit();
      const { request_id: _none, ...withoutRequestId } = decisionArgs(caseId, "approved");
      const result = await clients.reviewer.callTool({ name: "record_decision", arguments: withoutRequestId });
      expect(result.isError).toBe(true);
      // A JSON result in the API's error shape, naming the missing argument.
      const [content] = result.content as { type: string; text: string }[];
      const body = JSON.parse(content.text) as { status: string; code: string; details: { path: string }[] };
      expect(body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect(body.details.map((d) => d.path)).toContain("request_id");
      const history = await callTool(clients.reviewer, "get_case_history", { case_id: caseId });
      expect(history.body.count).toBe(1);

      const { request_id: _alsoNone, ...submission } = lgvSubmission();
      const submitted = await clients.member.callTool({ name: "submit_case", arguments: submission });
      expect(submitted.isError).toBe(true);
      expect((submitted.content as { text: string }[])[0].text).toContain("request_id");
    });

    it("refuses a reused request_id for a different submission with IDEMPOTENCY_CONFLICT", async () => {
      const requestId = rid("submit");
      const args = lgvSubmission({ request_id: requestId });
      const first = await callTool(clients.member, "submit_case", args);
      const again = await callTool(clients.member, "submit_case", args);
      expect(again.body).toMatchObject({ status: "success", replayed: true, case_id: first.body.case_id });
      const other = await callTool(clients.member, "submit_case", { ...args, payload: lgvPayload({ site: "Oslo" }) });
      expect(other.body).toMatchObject({
        status: "error",
        code: "IDEMPOTENCY_CONFLICT",
        details: { request_id: requestId, case_id: first.body.case_id },
      });
    });

    it("keeps tenants apart: another tenant's key finds no such case", async () => {
      const caseId = await submit();
      for (const [name, args] of [
        ["get_case", { case_id: caseId }],
        ["get_case_history", { case_id: caseId }],
        ["record_decision", decisionArgs(caseId, "approved")],
      ] as const) {
        const answer = await callTool(clients.acmeReviewer, name, args);
        expect(answer, name).toEqual({
          isError: true,
          body: { status: "not_found", message: expect.any(String), case_id: caseId },
        });
      }
      const queue = await callTool(clients.acmeReviewer, "list_review_queue", {});
      expect((queue.body.items as { case_id: string }[]).map((i) => i.case_id)).not.toContain(caseId);
      const demo = await callTool(clients.reviewer, "get_case", { case_id: caseId });
      expect(demo.body.case).toMatchObject({ state: { current_state: "pending" } });
    });

    it("pages the queue with next_cursor", async () => {
      for (let i = 0; i < 3; i++) await submit(lgvPayload({ lgv_id: `LGV-PAGE-${i}` }));
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let round = 0; round < 50; round++) {
        const page = await callTool(clients.reviewer, "list_review_queue", { limit: 2, ...(cursor ? { cursor } : {}) });
        const items = page.body.items as { case_id: string; current_state: string }[];
        expect(items.length).toBeLessThanOrEqual(2);
        expect(items.every((i) => i.current_state === "pending")).toBe(true);
        seen.push(...items.map((i) => i.case_id));
        if (!page.body.next_cursor) break;
        cursor = page.body.next_cursor as string;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      const badCursor = await callTool(clients.reviewer, "list_review_queue", { cursor: "not-a-cursor" });
      expect(badCursor.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
    });

    it("lists cases by state, outcome, decider, priority and ref", async () => {
      const ticket = rid("ticket");
      const submitted = await callTool(
        clients.member,
        "submit_case",
        lgvSubmission({
          payload: lgvPayload({ lgv_id: "LGV-CRITICAL" }),
          priority: "critical",
          refs: [{ ref_type: "ticket", ref_key: "jira", ref_value: ticket }],
        }),
      );
      const caseId = submitted.body.case_id as string;
      const other = await submit();
      const ids = async (args: Record<string, unknown>, tool = "list_cases") => {
        const answer = await callTool(clients.reviewer, tool, { limit: 100, ...args });
        expect(answer.body, JSON.stringify(args)).toMatchObject({ status: "success", next_cursor: null });
        const items = answer.body.items as { case_id: string }[];
        expect(answer.body.count).toBe(items.length);
        return items.map((i) => i.case_id);
      };

      expect(await ids({ ref: { ref_type: "ticket", ref_value: ticket } })).toEqual([caseId]);
      expect(await ids({ ref: { ref_type: "ticket", ref_key: "jira", ref_value: ticket } })).toEqual([caseId]);
      expect(await ids({ ref: { ref_type: "ticket", ref_key: "other", ref_value: ticket } })).toEqual([]);
      expect(await ids({ priority: "critical" }, "list_review_queue")).toEqual([caseId]);
      expect(await ids({ state: ["pending"] })).toEqual(expect.arrayContaining([caseId, other]));
      expect(await ids({ state: "pending" })).toEqual(expect.arrayContaining([caseId, other]));
      const read = await callTool(clients.member, "get_case", { case_id: caseId });
      expect(read.body.case).toMatchObject({ priority: "critical", state: { current_state: "pending" } });

      const before = Date.now();
      await callTool(clients.reviewer, "record_decision", decisionArgs(caseId, "approved"));
      const rejected = await callTool(
        clients.admin,
        "record_decision",
        decisionArgs(other, "rejected", { actor: DISPLAY.admin }),
      );
      const approvedByReviewer = await ids({
        decision_outcome: "approved",
        decided_by: keys.reviewer.userId,
        decided_from: before,
        sort: "decided",
      });
      expect(approvedByReviewer).toEqual([caseId]);
      const isoFrom = new Date(before).toISOString();
      expect(
        await ids({ decision_outcome: "approved", decided_by: keys.reviewer.userId, decided_from: isoFrom }),
      ).toEqual([caseId]);
      expect(await ids({ created_to: "2000-01-01" })).toEqual([]);
      // A date alone covers its whole day (UTC), as the lower and as the upper bound.
      const day = new Date((rejected.body.event as { created_at_ms: number }).created_at_ms).toISOString().slice(0, 10);
      expect(await ids({ decided_by: keys.admin.userId, decided_from: day, decided_to: day })).toContain(other);
      const reversed = await callTool(clients.reviewer, "list_cases", { decided_from: Date.now(), decided_to: 0 });
      expect(reversed.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      const notADate = await clients.reviewer.callTool({
        name: "list_cases",
        arguments: { created_from: "yesterday" },
      });
      expect(notADate.isError).toBe(true);
      expect(await ids({ state: ["rejected"], decided_by: keys.admin.userId, decided_from: before })).toEqual([other]);
      expect(await ids({ state: ["pending"] })).not.toContain(caseId);
      expect(await ids({}, "list_review_queue")).not.toContain(caseId);

      const badState = await clients.reviewer.callTool({ name: "list_cases", arguments: { state: ["escalated"] } });
      expect(badState.isError).toBe(true);
      const badPriority = await clients.member.callTool({
        name: "submit_case",
        arguments: lgvSubmission({ priority: "asap" }),
      });
      expect(badPriority.isError).toBe(true);
    });

    it("lets only an admin register and activate adapter schemas", async () => {
      const schemaV1 = {
        type: "object",
        properties: { item: { type: "string" }, amount: { type: "number", minimum: 0 } },
        required: ["item", "amount"],
        additionalProperties: false,
      };
      for (const client of [clients.member, clients.reviewer]) {
        const refused = await callTool(client, "register_adapter_schema", {
          adapter_id: "purchase_request",
          schema_version: 1,
          schema_json: schemaV1,
          activate: true,
          request_id: rid("register"),
        });
        expect(refused.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
        const activate = await callTool(client, "activate_adapter_schema", {
          adapter_id: "lgv_troubleshooting",
          schema_version: 1,
          request_id: rid("activate"),
        });
        expect(activate.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      }

      const registerV1 = {
        adapter_id: "purchase_request",
        schema_version: 1,
        schema_json: schemaV1,
        activate: true,
        request_id: rid("register"),
      };
      const v1 = await callTool(clients.admin, "register_adapter_schema", registerV1);
      expect(v1.body).toEqual({
        status: "success",
        schema: {
          adapter_id: "purchase_request",
          schema_version: 1,
          is_active: true,
          schema_json: schemaV1,
          created_at_ms: expect.any(Number),
          activated_at_ms: expect.any(Number),
          updated_at_ms: expect.any(Number),
        },
      });
      // The same schema under the same version again is a retry: the stored version, unchanged.
      const retried = await callTool(clients.admin, "register_adapter_schema", { ...registerV1, request_id: rid("r") });
      expect(retried.body).toEqual(v1.body);
      const submitV1 = (payload: Record<string, unknown>) =>
        callTool(clients.member, "submit_case", lgvSubmission({ adapter_id: "purchase_request", payload }));
      expect((await submitV1({ item: "pallet jack", amount: 900 })).body).toMatchObject({ status: "success" });

      const schemaV2 = { ...schemaV1, properties: { ...schemaV1.properties, currency: { enum: ["EUR", "USD"] } } };
      schemaV2.required = [...schemaV1.required, "currency"];
      const clash = await callTool(clients.admin, "register_adapter_schema", {
        adapter_id: "purchase_request",
        schema_version: 1,
        schema_json: schemaV2,
        request_id: rid("register"),
      });
      expect(clash.body).toMatchObject({
        status: "error",
        code: "SCHEMA_VERSION_EXISTS",
        details: { adapter_id: "purchase_request", schema_version: 1, next_version: 2 },
      });
      const v2 = await callTool(clients.admin, "register_adapter_schema", {
        adapter_id: "purchase_request",
        schema_version: 2,
        schema_json: schemaV2,
        request_id: rid("register"),
      });
      expect(v2.body).toMatchObject({ status: "success", schema: { schema_version: 2, is_active: false } });
      // Version 1 is still the active one until version 2 is activated.
      expect((await submitV1({ item: "forklift battery", amount: 4000 })).body).toMatchObject({ status: "success" });

      const activated = await callTool(clients.admin, "activate_adapter_schema", {
        adapter_id: "purchase_request",
        schema_version: 2,
        request_id: rid("activate"),
      });
      expect(activated.body).toEqual({
        status: "success",
        adapter_id: "purchase_request",
        schema_version: 2,
        activated_at_ms: expect.any(Number),
      });
      expect((await submitV1({ item: "forklift battery", amount: 4000 })).body).toMatchObject({
        status: "error",
        code: "PAYLOAD_INVALID",
        schema_version: 2,
      });
      expect((await submitV1({ item: "forklift battery", amount: 4000, currency: "EUR" })).body).toMatchObject({
        status: "success",
      });

      const missing = await callTool(clients.admin, "activate_adapter_schema", {
        adapter_id: "purchase_request",
        schema_version: 9,
        request_id: rid("activate"),
      });
      expect(missing.body).toMatchObject({ status: "not_found", adapter_id: "purchase_request", schema_version: 9 });
      const broken = await callTool(clients.admin, "register_adapter_schema", {
        adapter_id: "purchase_request",
        schema_version: 3,
        schema_json: { type: "no-such-type" },
        request_id: rid("register"),
      });
      expect(broken.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
    });

    it("refuses a submitted case that points at a run or an interrupt, and writes nothing", async () => {
      for (const refType of ["run", "interrupt"]) {
        const requestId = rid("submit");
        const answer = await callTool(
          clients.member,
          "submit_case",
          lgvSubmission({
            refs: [{ ref_type: refType, ref_key: "id", ref_value: "someone-elses-run" }],
            request_id: requestId,
          }),
        );
        expect(answer.isError).toBe(true);
        expect(answer.body).toMatchObject({
          status: "error",
          code: "VALIDATION_FAILED",
          details: [expect.objectContaining({ path: "refs.0.ref_type" })],
        });
        expect(await caseIdOfRequest({ tenantId: suite.tenants.demo }, requestId)).toBeNull();
      }
    });

    it("answers an unexpected failure as INTERNAL, logged, without internals", async () => {
      const logs = captureLogs();
      try {
        // An actor no credential yields, its tenant a NUL character (which no request can carry
        // any more): the database refuses the tool's first statement, a failure nothing anticipates.
        const res = await handleMcpRequest(
          new Request(MCP_URL, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "get_case", arguments: { case_id: "HITL-1" } },
            }),
          }),
          { tenantId: "\u0000", userId: "nobody", role: "reviewer", name: "Nobody" },
        );
        const { result } = (await res.json()) as { result: { isError?: boolean; structuredContent: unknown } };
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toEqual({
          status: "error",
          code: "INTERNAL",
          message: "Something went wrong on our side.",
        });
        expect(logs.lines().some((line) => line.level === "error" && line.msg === "unhandled error")).toBe(true);
      } finally {
        logs.stop();
      }
    });

    it("refuses a message with a NUL character before any tool runs", async () => {
      await expect(callTool(clients.reviewer, "get_case", { case_id: "HITL-\u0000" })).rejects.toThrow(
        /NUL characters/,
      );
    });

    it("answers 401 in the error shape, before MCP, to a bad, missing or non-key credential", async () => {
      await expect(connectClient("vk_not_a_real_key_at_all_123456")).rejects.toThrow(/401|UNAUTHENTICATED/);

      const cookie = cookieHeader(
        await call(sessionRoute.POST, {
          method: "POST",
          body: { email: "reviewer@demo.local", password: "vigil-demo" },
        }),
      );
      expect(cookie).not.toBe("");
      for (const headers of [
        { authorization: "Bearer vk_not_a_real_key_at_all_123456" },
        { authorization: "Basic cmV2aWV3ZXI6dmlnaWw=" },
        {},
        { cookie },
      ] as Record<string, string>[]) {
        const res = await postRaw(headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(await res.json()).toEqual({
          status: "error",
          code: "UNAUTHENTICATED",
          message: "Sign in or send a valid API key.",
        });
      }
      const ok = await postRaw(
        { authorization: `Bearer ${keys.member.key}` },
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
      );
      expect(ok.status).toBe(200);
      expect(ok.headers.get("mcp-session-id")).toBeNull();
      expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: "vigil-hitl" } } });
    });

    it("refuses a request from another origin with 403, even with a valid key", async () => {
      const auth = { authorization: `Bearer ${keys.member.key}` };
      for (const origin of ["http://evil.example.com", "null"]) {
        const res = await postRaw({ ...auth, origin });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({
          status: "error",
          code: "ORIGIN_FORBIDDEN",
          message: expect.any(String),
          details: { origin },
        });
      }
      const sameOrigin = await postRaw({ ...auth, origin: new URL(MCP_URL).origin });
      expect(sameOrigin.status).toBe(200);
      expect(await sameOrigin.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    });

    it("answers GET and DELETE with 405 in the error shape (the transport is stateless)", async () => {
      for (const method of ["GET", "DELETE"]) {
        const res = await routeFetch(MCP_URL, {
          method,
          headers: { authorization: `Bearer ${keys.member.key}`, accept: "text/event-stream" },
        });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(await res.json()).toEqual({ status: "error", code: "METHOD_NOT_ALLOWED", message: expect.any(String) });
      }
    });
  });
}
