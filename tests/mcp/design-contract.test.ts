import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/access";
import { createApiKey } from "@/lib/tenancy";
import { rid } from "../hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { callTool, connectClient, type ToolAnswer } from "./support";

// The HITL design's MCP tool surface, black-box: the SDK's own client over the real route,
// speaking only the design's argument names and reading the design's column names back
// (/work/shared/seeds/002_bf0ad4ad8e1f1207.txt, "MCP Tool Surface"). One case goes the whole
// way through a new adapter; each step builds on the one before.

/** The design's tools: their parameters, and which of them are required. */
const DESIGN_TOOLS: Record<string, { properties: string[]; required: string[] }> = {
  submit_case: {
    properties: [
      "adapter_id",
      "case_type",
      "title",
      "summary",
      "payload",
      "submitter",
      "priority",
      "confidence",
      "refs",
      "request_id",
    ],
    required: ["adapter_id", "case_type", "title", "payload", "submitter", "request_id"],
  },
  get_case: { properties: ["case_id"], required: ["case_id"] },
  list_cases: { properties: ["state", "adapter_id", "priority", "limit", "cursor"], required: [] },
  list_review_queue: { properties: ["adapter_id", "priority", "state", "limit"], required: [] },
  // question and answer are the design's too; their absence is answered with the design's own
  // codes (QUESTION_REQUIRED, ANSWER_REQUIRED: see below), so the schema leaves them optional.
  request_clarification: {
    properties: ["case_id", "question", "notes", "actor", "request_id"],
    required: ["case_id", "notes", "actor", "request_id"],
  },
  provide_clarification: {
    properties: ["case_id", "answer", "notes", "actor", "request_id"],
    required: ["case_id", "notes", "actor", "request_id"],
  },
  record_decision: {
    properties: ["case_id", "decision", "notes", "actor", "request_id"],
    required: ["case_id", "decision", "notes", "actor", "request_id"],
  },
  get_case_history: { properties: ["case_id"], required: ["case_id"] },
  register_adapter_schema: {
    properties: ["adapter_id", "schema_version", "schema_json", "request_id"],
    required: ["adapter_id", "schema_version", "schema_json", "request_id"],
  },
  activate_adapter_schema: {
    properties: ["adapter_id", "schema_version", "request_id"],
    required: ["adapter_id", "schema_version", "request_id"],
  },
};

const ADAPTER = "payments_risk";
const SCHEMA = {
  type: "object",
  properties: {
    transaction_id: { type: "string" },
    amount_eur: { type: "number", minimum: 0 },
    merchant: { type: "string" },
    risk_score: { type: "number", minimum: 0, maximum: 1 },
    signals: { type: "array", items: { type: "string" } },
  },
  required: ["transaction_id", "amount_eur", "risk_score"],
  additionalProperties: false,
};
// Keys deliberately out of canonical (RFC 8785) order.
const PAYLOAD = {
  transaction_id: "TX-2024-0917",
  risk_score: 0.91,
  merchant: "Nordlicht GmbH",
  amount_eur: 12500.5,
  signals: ["velocity", "new_device"],
};
const SUBMITTER = { name: "Fraud Scout", role: "Payments risk agent", id: "agent-claimed-id", team: "Payments" };
const REVIEWER = { name: "Riley Reviewer", role: "Risk analyst", team: "Payments risk" };
const MEMBER = { name: "Fraud Scout", role: "Payments risk agent", team: "Payments", kind: "agent" };
const ADMIN = { name: "Avery Admin", role: "Risk lead", team: "Payments risk" };
const REFS = [
  { ref_type: "ticket", ref_key: "jira", ref_value: "PAY-9" },
  { ref_type: "neo4j_node", ref_key: "name", ref_value: "LGV-07" },
];

const sha256Hex = (value: unknown) =>
  createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");

/** A refusal as the design answers it: a JSON tool result with isError, status "error" and the code. */
function expectError(answer: ToolAnswer, code: string): Record<string, unknown> {
  expect(answer.isError, JSON.stringify(answer.body)).toBe(true);
  expect(answer.body).toMatchObject({ status: "error", code });
  return answer.body;
}

function expectSuccess(answer: ToolAnswer): Record<string, unknown> {
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  expect(answer.body.status).toBe("success");
  return answer.body;
}

interface EventRecord {
  event_id: string;
  event_type: string;
  event_json: string;
  created_at_ms: number;
  [field: string]: unknown;
}

for (const target of appTargets()) {
  describe(`the HITL design's MCP contract on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const principals = {} as Record<"member" | "reviewer" | "admin", string>;
    const clients = {} as Record<"member" | "reviewer" | "admin", Client>;
    // Shared by the steps, in order.
    let caseId = "";
    let submitRequestId = "";
    let decision: EventRecord;

    beforeAll(async () => {
      for (const role of ["member", "reviewer", "admin"] as const satisfies readonly Role[]) {
        const created = await createApiKey(
          { tenantId: suite.tenants.demo },
          { name: `${role} agent`, role, createdBy: "test" },
        );
        principals[role] = `apikey:${created.id}`;
        clients[role] = await connectClient(created.key);
      }
    });

    afterAll(async () => {
      for (const client of Object.values(clients)) await client?.close();
    });

    it("tools/list: the design's ten tools plus supersede_decision, with the design's parameters", async () => {
      const { tools } = await clients.member.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...Object.keys(DESIGN_TOOLS), "supersede_decision"].sort());
      for (const [name, contract] of Object.entries(DESIGN_TOOLS)) {
        const tool = tools.find((t) => t.name === name);
        const properties = Object.keys(tool?.inputSchema.properties ?? {});
        expect(properties, name).toEqual(expect.arrayContaining(contract.properties));
        expect(tool?.inputSchema.required ?? [], name).toEqual(expect.arrayContaining(contract.required));
      }
      const decide = tools.find((t) => t.name === "record_decision");
      expect(decide?.inputSchema.properties?.decision).toMatchObject({ enum: ["approved", "rejected"] });
      const supersede = tools.find((t) => t.name === "supersede_decision");
      expect(supersede?.inputSchema.required).toEqual(
        expect.arrayContaining(["case_id", "decision", "notes", "actor", "request_id"]),
      );
    });

    it("register_adapter_schema and activate_adapter_schema (admin) open a new adapter", async () => {
      const registered = expectSuccess(
        await callTool(clients.admin, "register_adapter_schema", {
          adapter_id: ADAPTER,
          schema_version: 1,
          schema_json: SCHEMA,
          activate: true,
          request_id: rid("register"),
        }),
      );
      expect(registered.schema).toEqual({
        adapter_id: ADAPTER,
        schema_version: 1,
        is_active: true,
        schema_json: SCHEMA,
        created_at_ms: expect.any(Number),
        activated_at_ms: expect.any(Number),
        updated_at_ms: expect.any(Number),
      });
      const activated = expectSuccess(
        await callTool(clients.admin, "activate_adapter_schema", {
          adapter_id: ADAPTER,
          schema_version: 1,
          request_id: rid("activate"),
        }),
      );
      expect(activated).toEqual({
        status: "success",
        adapter_id: ADAPTER,
        schema_version: 1,
        activated_at_ms: expect.any(Number),
      });
    });

    it("submit_case with every field; get_case answers them under the design's column names", async () => {
      submitRequestId = rid("submit");
      const before = Date.now();
      const submitted = expectSuccess(
        await callTool(clients.member, "submit_case", {
          adapter_id: ADAPTER,
          case_type: "incident",
          title: "Card payment of 12,500 EUR flagged",
          summary: "A first payment to a new merchant from a new device; the agent is unsure.",
          payload: PAYLOAD,
          submitter: { ...SUBMITTER, kind: "agent" },
          priority: "critical",
          confidence: "low",
          refs: REFS,
          request_id: submitRequestId,
        }),
      );
      expect(submitted).toMatchObject({
        current_state: "pending",
        replayed: false,
        event: { event_type: "submitted", request_id: submitRequestId },
      });
      caseId = submitted.case_id as string;
      expect(caseId).toMatch(/^HITL-/);

      const read = expectSuccess(await callTool(clients.member, "get_case", { case_id: caseId }));
      const kase = read.case as Record<string, unknown>;
      expect(kase).toMatchObject({
        case_id: caseId,
        adapter_id: ADAPTER,
        case_type: "incident",
        title: "Card payment of 12,500 EUR flagged",
        summary: "A first payment to a new merchant from a new device; the agent is unsure.",
        payload: PAYLOAD,
        payload_hash_sha256: sha256Hex(PAYLOAD),
        submitter_name: SUBMITTER.name,
        submitter_role: SUBMITTER.role,
        // The key's principal, not the id the caller claimed.
        submitter_id: principals.member,
        submitter_team: SUBMITTER.team,
        priority: "critical",
        confidence: "low",
        state: { current_state: "pending" },
      });
      expect(kase.payload_hash_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(kase.created_at_ms).toBeGreaterThanOrEqual(before);
      expect(kase.updated_at_ms).toBeGreaterThanOrEqual(kase.created_at_ms as number);
      const byValue = (a: { ref_value: string }, b: { ref_value: string }) => a.ref_value.localeCompare(b.ref_value);
      expect([...(kase.refs as typeof REFS)].sort(byValue)).toEqual([...REFS].sort(byValue));
      expect((read.history as EventRecord[]).map((e) => e.event_type)).toEqual(["submitted"]);
    });

    it("list_review_queue and list_cases find it, with state as one value and as a list", async () => {
      const ids = (answer: ToolAnswer) =>
        (expectSuccess(answer).items as { case_id: string }[]).map((item) => item.case_id);

      const queue = expectSuccess(
        await callTool(clients.reviewer, "list_review_queue", { adapter_id: ADAPTER, state: "pending" }),
      );
      expect(queue.items).toEqual([
        expect.objectContaining({
          case_id: caseId,
          adapter_id: ADAPTER,
          case_type: "incident",
          title: "Card payment of 12,500 EUR flagged",
          current_state: "pending",
          priority: "critical",
          confidence: "low",
        }),
      ]);
      expect(queue.count).toBe(1);
      expect(
        ids(await callTool(clients.reviewer, "list_review_queue", { adapter_id: ADAPTER, state: ["pending"] })),
      ).toEqual([caseId]);
      expect(
        ids(
          await callTool(clients.reviewer, "list_cases", {
            adapter_id: ADAPTER,
            state: ["pending", "needs_clarification"],
          }),
        ),
      ).toEqual([caseId]);
      expect(ids(await callTool(clients.reviewer, "list_cases", { adapter_id: ADAPTER, state: "pending" }))).toEqual([
        caseId,
      ]);
      expect(ids(await callTool(clients.reviewer, "list_cases", { adapter_id: ADAPTER, state: "approved" }))).toEqual(
        [],
      );
    });

    it("request_clarification (reviewer) → needs_clarification; provide_clarification (member) → pending", async () => {
      const asked = expectSuccess(
        await callTool(clients.reviewer, "request_clarification", {
          case_id: caseId,
          question: "Has the card holder used this device before?",
          notes: "Device fingerprint is new.",
          actor: REVIEWER,
          request_id: rid("ask"),
        }),
      );
      expect(asked).toMatchObject({ case_id: caseId, current_state: "needs_clarification" });
      const waiting = expectSuccess(await callTool(clients.member, "get_case", { case_id: caseId }));
      expect(waiting.case).toMatchObject({ state: { current_state: "needs_clarification" } });
      const open = expectSuccess(
        await callTool(clients.reviewer, "list_cases", {
          adapter_id: ADAPTER,
          state: ["pending", "needs_clarification"],
        }),
      );
      expect((open.items as { case_id: string }[]).map((i) => i.case_id)).toEqual([caseId]);

      const answered = expectSuccess(
        await callTool(clients.member, "provide_clarification", {
          case_id: caseId,
          answer: "No: first seen an hour before the payment.",
          notes: "From the device registry.",
          actor: MEMBER,
          request_id: rid("answer"),
        }),
      );
      expect(answered).toMatchObject({ case_id: caseId, current_state: "pending" });
    });

    it("record_decision (reviewer) → approved; a replay returns the same event", async () => {
      const args = {
        case_id: caseId,
        decision: "approved",
        notes: "Holder confirmed by phone.",
        actor: REVIEWER,
        request_id: rid("decide"),
      };
      const decided = expectSuccess(await callTool(clients.reviewer, "record_decision", args));
      expect(decided).toMatchObject({
        case_id: caseId,
        current_state: "approved",
        replayed: false,
        event: { event_type: "decision_recorded", decision_outcome: "approved" },
      });
      decision = decided.event as EventRecord;

      const replay = expectSuccess(await callTool(clients.reviewer, "record_decision", args));
      expect(replay).toMatchObject({ case_id: caseId, current_state: "approved", replayed: true });
      expect((replay.event as EventRecord).event_id).toBe(decision.event_id);

      const read = expectSuccess(await callTool(clients.member, "get_case", { case_id: caseId }));
      expect(read.case).toMatchObject({
        state: {
          current_state: "approved",
          active_decision_outcome: "approved",
          active_terminal_event_id: decision.event_id,
        },
      });
    });

    it("get_case_history: every event in order, with every field of the design's hitl_events", async () => {
      const history = expectSuccess(await callTool(clients.member, "get_case_history", { case_id: caseId }));
      expect(history).toMatchObject({ case_id: caseId, count: 4 });
      const items = history.items as EventRecord[];
      const actor = (who: "member" | "reviewer", display: { name: string; role: string; team: string }) => ({
        actor_kind: who === "member" ? "agent" : "operator",
        actor_name: display.name,
        actor_role: display.role,
        actor_id: principals[who],
        actor_team: display.team,
      });
      const base = { event_id: expect.stringMatching(/^HEV-/), case_id: caseId, supersedes_event_id: null };
      expect(items).toEqual([
        expect.objectContaining({
          ...base,
          event_type: "submitted",
          decision_outcome: null,
          notes: "",
          question: null,
          answer: null,
          ...actor("member", SUBMITTER),
          request_id: submitRequestId,
        }),
        expect.objectContaining({
          ...base,
          event_type: "needs_clarification",
          decision_outcome: null,
          notes: "Device fingerprint is new.",
          question: "Has the card holder used this device before?",
          answer: null,
          ...actor("reviewer", REVIEWER),
          request_id: expect.stringMatching(/^ask-/),
        }),
        expect.objectContaining({
          ...base,
          event_type: "clarification_provided",
          decision_outcome: null,
          notes: "From the device registry.",
          question: null,
          answer: "No: first seen an hour before the payment.",
          // An answer is recorded under the principal's own name (the key's), not the one given.
          ...actor("member", { ...MEMBER, name: "member agent" }),
          request_id: expect.stringMatching(/^answer-/),
        }),
        expect.objectContaining({
          ...base,
          event_id: decision.event_id,
          event_type: "decision_recorded",
          decision_outcome: "approved",
          notes: "Holder confirmed by phone.",
          question: null,
          answer: null,
          ...actor("reviewer", REVIEWER),
          request_id: decision.request_id,
        }),
      ]);
      for (const [i, event] of items.entries()) {
        expect(typeof event.created_at_ms).toBe("number");
        if (i > 0) expect(event.created_at_ms).toBeGreaterThanOrEqual(items[i - 1].created_at_ms);
        const recorded = JSON.parse(event.event_json) as Record<string, unknown>;
        expect(recorded).toMatchObject({ event_id: event.event_id, event_type: event.event_type, case_id: caseId });
      }
    });

    it("refuses what the design refuses, as JSON tool results with its error codes", async () => {
      const conflict = expectError(
        await callTool(clients.member, "submit_case", {
          adapter_id: ADAPTER,
          case_type: "incident",
          title: "Card payment of 12,500 EUR flagged",
          payload: { ...PAYLOAD, amount_eur: 99 },
          submitter: SUBMITTER,
          request_id: submitRequestId,
        }),
        "IDEMPOTENCY_CONFLICT",
      );
      expect(conflict.details).toMatchObject({ request_id: submitRequestId, case_id: caseId });

      const terminal = expectError(
        await callTool(clients.reviewer, "record_decision", {
          case_id: caseId,
          decision: "rejected",
          notes: "Second thoughts.",
          actor: REVIEWER,
          request_id: rid("decide"),
        }),
        "ALREADY_TERMINAL",
      );
      expect(terminal.details).toMatchObject({
        decision: { event_id: decision.event_id, decision_outcome: "approved" },
      });

      const transition = expectError(
        await callTool(clients.member, "provide_clarification", {
          case_id: caseId,
          answer: "One more thing.",
          notes: "",
          actor: MEMBER,
          request_id: rid("answer"),
        }),
        "INVALID_STATE_TRANSITION",
      );
      expect(transition).toMatchObject({ from_state: "approved", requested_action: "provide_clarification" });

      expectError(
        await callTool(clients.member, "submit_case", {
          adapter_id: "no_such_adapter",
          case_type: "incident",
          title: "Nowhere",
          payload: PAYLOAD,
          submitter: SUBMITTER,
          request_id: rid("submit"),
        }),
        "ADAPTER_NOT_FOUND",
      );

      const invalid = expectError(
        await callTool(clients.member, "submit_case", {
          adapter_id: ADAPTER,
          case_type: "incident",
          title: "Missing the score",
          payload: { transaction_id: "TX-2", amount_eur: -1 },
          submitter: SUBMITTER,
          request_id: rid("submit"),
        }),
        "PAYLOAD_INVALID",
      );
      expect(Array.isArray(invalid.details)).toBe(true);
      expect((invalid.details as unknown[]).length).toBeGreaterThanOrEqual(2);

      // A fresh pending case for the clarification refusals.
      const fresh = expectSuccess(
        await callTool(clients.member, "submit_case", {
          adapter_id: ADAPTER,
          case_type: "question",
          title: "Small payment, new merchant",
          payload: { transaction_id: "TX-3", amount_eur: 12, risk_score: 0.4 },
          submitter: SUBMITTER,
          request_id: rid("submit"),
        }),
      ).case_id as string;
      for (const question of [{ question: "" }, {}]) {
        expectError(
          await callTool(clients.reviewer, "request_clarification", {
            case_id: fresh,
            ...question,
            notes: "",
            actor: REVIEWER,
            request_id: rid("ask"),
          }),
          "QUESTION_REQUIRED",
        );
      }
      for (const answer of [{ answer: "" }, {}]) {
        expectError(
          await callTool(clients.member, "provide_clarification", {
            case_id: fresh,
            ...answer,
            notes: "",
            actor: MEMBER,
            request_id: rid("answer"),
          }),
          "ANSWER_REQUIRED",
        );
      }

      // A missing required argument: a JSON tool result naming it, not a JSON-RPC error (-32602).
      const raw = await clients.reviewer.callTool({
        name: "record_decision",
        arguments: { case_id: fresh, decision: "approved", actor: REVIEWER, request_id: rid("decide") },
      });
      expect(raw.isError).toBe(true);
      const [content] = raw.content as { type: string; text: string }[];
      expect(content.type).toBe("text");
      expect(content.text).not.toContain("-32602");
      const body = JSON.parse(content.text) as { status: string; code: string; details: { path: string }[] };
      expect(raw.structuredContent).toEqual(body);
      expect(body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect(body.details.map((d) => d.path)).toContain("notes");

      // None of these refusals wrote an event.
      const history = expectSuccess(await callTool(clients.member, "get_case_history", { case_id: fresh }));
      expect(history.count).toBe(1);
      const untouched = expectSuccess(await callTool(clients.member, "get_case_history", { case_id: caseId }));
      expect(untouched.count).toBe(4);
    });

    it("supersede_decision (admin) replaces the decision and names the one it supersedes", async () => {
      const superseded = expectSuccess(
        await callTool(clients.admin, "supersede_decision", {
          case_id: caseId,
          decision: "rejected",
          notes: "reason",
          actor: ADMIN,
          request_id: rid("supersede"),
        }),
      );
      expect(superseded).toMatchObject({
        case_id: caseId,
        current_state: "rejected",
        event: {
          event_type: "decision_superseded",
          decision_outcome: "rejected",
          notes: "reason",
          supersedes_event_id: decision.event_id,
          actor_id: principals.admin,
        },
      });
      const supersedeEvent = superseded.event as EventRecord;

      const read = expectSuccess(await callTool(clients.member, "get_case", { case_id: caseId }));
      expect(read.case).toMatchObject({
        state: {
          current_state: "rejected",
          active_decision_outcome: "rejected",
          active_terminal_event_id: supersedeEvent.event_id,
        },
      });
      const history = expectSuccess(await callTool(clients.member, "get_case_history", { case_id: caseId }));
      const items = history.items as EventRecord[];
      expect(items.map((e) => e.event_type)).toEqual([
        "submitted",
        "needs_clarification",
        "clarification_provided",
        "decision_recorded",
        "decision_superseded",
      ]);
      expect(items[4]).toMatchObject({
        event_id: supersedeEvent.event_id,
        supersedes_event_id: decision.event_id,
        decision_outcome: "rejected",
        notes: "reason",
        actor_kind: "operator",
        actor_name: ADMIN.name,
        actor_role: ADMIN.role,
        actor_team: ADMIN.team,
      });
      // The superseded decision stays in the log as it was.
      expect(items[3]).toEqual(decision);
    });
  });
}
