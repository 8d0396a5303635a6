import { describe, expect, it } from "vitest";
import * as clarificationRoute from "@/app/api/hitl/cases/[id]/clarification/route";
import * as clarificationRequestRoute from "@/app/api/hitl/cases/[id]/clarification-request/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as escalationRoute from "@/app/api/hitl/cases/[id]/escalation/route";
import * as historyRoute from "@/app/api/hitl/cases/[id]/history/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as supersedeRoute from "@/app/api/hitl/cases/[id]/supersede/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as clarificationsRoute from "@/app/api/hitl/clarifications/route";
import * as decisionsRoute from "@/app/api/hitl/decisions/route";
import * as queueRoute from "@/app/api/hitl/queue/route";
import { createApiKey } from "@/lib/tenancy";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase, userIdOf } from "../support/seeded";
import {
  ACME_ADMIN,
  ACME_MEMBER,
  ADMIN,
  caseBody,
  type HitlClient,
  hitlClient,
  hitlSnapshot,
  lgvPayload,
  MEMBER,
  REVIEWER,
  rid,
  SUBMITTER,
} from "./support";

interface Item {
  id: string;
  state: string;
}

for (const target of appTargets()) {
  describe(`HITL case API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api: HitlClient = hitlClient();

    async function submit(email = MEMBER, body: Record<string, unknown> = {}) {
      const res = await api.post(email, casesRoute.POST, "/api/hitl/cases", caseBody(body));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.caseId as string;
    }

    const on = (id: string) => ({ id });
    const history = async (id: string) =>
      (await api.get(REVIEWER, historyRoute.GET, `/api/hitl/cases/${id}/history`, on(id))).body.items as {
        type: string;
      }[];

    it("runs submit → queue → ask → answer → decide over HTTP", async () => {
      const memberId = await userIdOf(suite.database, MEMBER);
      const submitted = await api.post(
        MEMBER,
        casesRoute.POST,
        "/api/hitl/cases",
        caseBody({ refs: [{ ref_type: "ticket", ref_key: "id", ref_value: "ticket-4711" }], priority: "high" }),
      );
      expect(submitted.status).toBe(201);
      expect(submitted.body).toMatchObject({
        status: "success",
        state: "pending",
        replayed: false,
        event: {
          type: "submitted",
          seq: 1,
          actor: { kind: "operator", id: memberId, name: SUBMITTER.name, role: SUBMITTER.role },
        },
      });
      const id = submitted.body.caseId as string;
      expect(id).toMatch(/^HITL-[0-9a-f-]{36}$/);

      const queue = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue");
      expect(queue.status).toBe(200);
      expect((queue.body.items as Item[]).map((i) => i.id)).toContain(id);

      const asked = await api.post(
        REVIEWER,
        clarificationRequestRoute.POST,
        `/api/hitl/cases/${id}/clarification-request`,
        { request_id: rid("ask"), question: "Which firmware does LGV-07 run?" },
        on(id),
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(asked.body).toMatchObject({ status: "success", state: "needs_clarification" });

      const waiting = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?state=needs_clarification", {});
      expect((waiting.body.items as Item[]).map((i) => i.id)).toContain(id);
      const pending = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue");
      expect((pending.body.items as Item[]).map((i) => i.id)).not.toContain(id);
      const backlog = await api.get(MEMBER, clarificationsRoute.GET, "/api/hitl/clarifications");
      expect(backlog.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id, openQuestion: "Which firmware does LGV-07 run?", ageMs: expect.any(Number) }),
        ]),
      );

      const answered = await api.post(
        MEMBER,
        clarificationRoute.POST,
        `/api/hitl/cases/${id}/clarification`,
        { request_id: rid("answer"), answer: "4.2.1" },
        on(id),
      );
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(answered.body.state).toBe("pending");

      const decided = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        {
          request_id: rid("decide"),
          decision: "approved",
          modifications: { proposed_next_action: "Re-survey reflectors in aisles 4 and 5" },
          notes: "Extend to aisle 5",
        },
        on(id),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(decided.body).toMatchObject({
        status: "success",
        state: "approved",
        replayed: false,
        event: { type: "decision_recorded", outcome: "approved", notes: "Extend to aisle 5" },
      });

      const read = await api.get(MEMBER, caseRoute.GET, `/api/hitl/cases/${id}`, on(id));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        status: "success",
        case: {
          id,
          adapter: "lgv_troubleshooting",
          priority: "high",
          summary: expect.stringContaining("LGV LGV-07 at Lyon DC2"),
          payload: lgvPayload(),
          refs: [{ ref_type: "ticket", ref_key: "id", ref_value: "ticket-4711" }],
          state: { state: "approved", outcome: "approved", clarificationRounds: 1 },
        },
      });
      const types = (read.body.history as { type: string }[]).map((e) => e.type);
      expect(types).toEqual(["submitted", "needs_clarification", "clarification_provided", "decision_recorded"]);

      const hist = await api.get(MEMBER, historyRoute.GET, `/api/hitl/cases/${id}/history`, on(id));
      expect(hist.body).toMatchObject({ status: "success", case_id: id, count: 4 });

      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const log = await api.get(ADMIN, decisionsRoute.GET, `/api/hitl/decisions?actor=${reviewerId}`);
      expect(log.body.items).toEqual([
        expect.objectContaining({ caseId: id, outcome: "approved", modified: true, actor: expect.any(Object) }),
      ]);
    });

    it("replays a submit with the same request_id and refuses it for a different one", async () => {
      const body = caseBody();
      const first = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", body);
      expect(first.status).toBe(201);
      const again = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", body);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: "success", replayed: true, caseId: first.body.caseId });

      const before = await hitlSnapshot(suite.database);
      const conflict = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", {
        ...body,
        payload: lgvPayload({ site: "Elsewhere" }),
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({
        status: "error",
        code: "IDEMPOTENCY_CONFLICT",
        details: { request_id: body.request_id, case_id: first.body.caseId },
      });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("lets a member submit and answer but not decide, ask or escalate — and writes nothing", async () => {
      const id = await submit();
      const before = await hitlSnapshot(suite.database);
      const attempts = [
        [decisionRoute.POST, "decision", { request_id: rid(), decision: "approved" }],
        [supersedeRoute.POST, "supersede", { request_id: rid(), decision: "rejected", notes: "Not theirs to decide" }],
        [clarificationRequestRoute.POST, "clarification-request", { request_id: rid(), question: "Why?" }],
        [escalationRoute.POST, "escalation", { request_id: rid(), target: "admin" }],
      ] as const;
      for (const [handler, path, body] of attempts) {
        const res = await api.post(MEMBER, handler, `/api/hitl/cases/${id}/${path}`, body, on(id));
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      }
      expect(await hitlSnapshot(suite.database)).toEqual(before);
      expect(await history(id)).toHaveLength(1);
    });

    it("answers ALREADY_TERMINAL with the decision that stands, and replays the winner's retry", async () => {
      const id = await submit();
      const winner = { request_id: rid("decide"), decision: "approved", notes: "Looks right" };
      const first = await api.post(REVIEWER, decisionRoute.POST, `/api/hitl/cases/${id}/decision`, winner, on(id));
      expect(first.status).toBe(200);
      const before = await hitlSnapshot(suite.database);

      const late = await api.post(
        ADMIN,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid("late"), decision: "rejected", notes: "Too risky" },
        on(id),
      );
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({
        status: "error",
        code: "ALREADY_TERMINAL",
        details: {
          case_id: id,
          state: "approved",
          decision: {
            event_id: (first.body.event as { id: string }).id,
            event_type: "decision_recorded",
            decision_outcome: "approved",
            actor_kind: "operator",
            actor_id: await userIdOf(suite.database, REVIEWER),
            actor_name: "Riley Reviewer",
            actor_role: "reviewer",
            actor_team: null,
            modifications: null,
            notes: "Looks right",
            created_at_ms: expect.any(Number),
          },
        },
      });
      const retry = await api.post(REVIEWER, decisionRoute.POST, `/api/hitl/cases/${id}/decision`, winner, on(id));
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ replayed: true, event: { id: (first.body.event as { id: string }).id } });

      const conflict = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { ...winner, decision: "rejected" },
        on(id),
      );
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { request_id: winner.request_id } });

      const ask = await api.post(
        REVIEWER,
        clarificationRequestRoute.POST,
        `/api/hitl/cases/${id}/clarification-request`,
        { request_id: rid(), question: "Too late?" },
        on(id),
      );
      expect(ask.status).toBe(409);
      expect(ask.body).toMatchObject({
        code: "INVALID_STATE_TRANSITION",
        details: { from_state: "approved", requested_action: "request_clarification" },
      });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
      expect(await history(id)).toHaveLength(2);
    });

    it("refuses an answer nobody asked for with INVALID_STATE_TRANSITION", async () => {
      const id = await submit();
      const res = await api.post(
        MEMBER,
        clarificationRoute.POST,
        `/api/hitl/cases/${id}/clarification`,
        { request_id: rid(), answer: "unprompted" },
        on(id),
      );
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "INVALID_STATE_TRANSITION", details: { from_state: "pending" } });
      expect(await history(id)).toHaveLength(1);
    });

    it("refuses a payload that does not match the adapter with 422 and its findings", async () => {
      const before = await hitlSnapshot(suite.database);
      const res = await api.post(
        MEMBER,
        casesRoute.POST,
        "/api/hitl/cases",
        caseBody({ payload: { symptom: "stops", site: 42 } }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        status: "error",
        code: "PAYLOAD_INVALID",
        adapter_id: "lgv_troubleshooting",
        schema_version: 1,
      });
      const issues = res.body.details as { path: string; keyword: string }[];
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: "/site", keyword: "type" }),
          expect.objectContaining({ keyword: "required" }),
        ]),
      );

      const id = await submit();
      const badModification = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid(), decision: "approved", modifications: { lgv_id: 7 } },
        on(id),
      );
      expect(badModification.status).toBe(422);
      expect(badModification.body.code).toBe("PAYLOAD_INVALID");
      expect(await history(id)).toHaveLength(1);
      const after = await hitlSnapshot(suite.database);
      expect(after.counts.hitl_cases).toBe(before.counts.hitl_cases + 1);
    });

    it("answers ADAPTER_NOT_FOUND for an adapter nobody registered", async () => {
      const before = await hitlSnapshot(suite.database);
      const res = await api.post(
        MEMBER,
        casesRoute.POST,
        "/api/hitl/cases",
        caseBody({ adapter_id: "no_such_adapter", payload: { anything: true } }),
      );
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        status: "error",
        code: "ADAPTER_NOT_FOUND",
        details: { adapter_id: "no_such_adapter" },
      });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("answers not_found with the case id for an unknown case, on every case route", async () => {
      const id = "HITL-00000000-0000-4000-8000-000000000000";
      const before = await hitlSnapshot(suite.database);
      for (const res of [
        await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${id}`, on(id)),
        await api.get(REVIEWER, historyRoute.GET, `/api/hitl/cases/${id}/history`, on(id)),
        await api.post(
          REVIEWER,
          decisionRoute.POST,
          `/api/hitl/cases/${id}/decision`,
          { request_id: rid(), decision: "rejected" },
          on(id),
        ),
        await api.post(
          MEMBER,
          clarificationRoute.POST,
          `/api/hitl/cases/${id}/clarification`,
          { request_id: rid(), answer: "x" },
          on(id),
        ),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: "not_found", case_id: id });
      }
      const garbage = await api.get(REVIEWER, caseRoute.GET, "/api/hitl/cases/not-a-case", on("not-a-case"));
      expect(garbage.status).toBe(404);
      expect(garbage.body).toMatchObject({ status: "not_found", case_id: "not-a-case" });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("hides another tenant's case behind 404 and lets nobody there touch it", async () => {
      const id = await submit();
      const before = await hitlSnapshot(suite.database);
      const read = await api.get(ACME_ADMIN, caseRoute.GET, `/api/hitl/cases/${id}`, on(id));
      expect(read.status).toBe(404);
      expect(read.body).toMatchObject({ status: "not_found", case_id: id });
      const decide = await api.post(
        ACME_ADMIN,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid(), decision: "approved" },
        on(id),
      );
      expect(decide.status).toBe(404);
      const supersede = await api.post(
        ACME_ADMIN,
        supersedeRoute.POST,
        `/api/hitl/cases/${id}/supersede`,
        { request_id: rid(), decision: "rejected", notes: "Not ours" },
        on(id),
      );
      expect(supersede.status).toBe(404);
      expect(supersede.body).toMatchObject({ status: "not_found", case_id: id });
      const answer = await api.post(
        ACME_MEMBER,
        clarificationRoute.POST,
        `/api/hitl/cases/${id}/clarification`,
        { request_id: rid(), answer: "x" },
        on(id),
      );
      expect(answer.status).toBe(404);
      const queue = await api.get(ACME_ADMIN, queueRoute.GET, "/api/hitl/queue?limit=100");
      expect((queue.body.items as Item[]).map((i) => i.id)).not.toContain(id);
      expect(await hitlSnapshot(suite.database)).toEqual(before);
      expect(await history(id)).toHaveLength(1);
    });

    it("refuses bad bodies with 400 and the failing fields, never 500, and writes nothing", async () => {
      const id = await submit();
      const before = await hitlSnapshot(suite.database);
      const cases: [unknown, string, Record<string, unknown>, string, string[]][] = [
        [casesRoute.POST, "/api/hitl/cases", caseBody({ request_id: undefined, payload: {} }), MEMBER, ["request_id"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ payload: undefined }), MEMBER, ["payload"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ payload: [1, 2] }), MEMBER, ["payload"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ priority: "asap" }), MEMBER, ["priority"]],
        // The design's required fields.
        [casesRoute.POST, "/api/hitl/cases", caseBody({ adapter_id: undefined }), MEMBER, ["adapter_id"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ case_type: undefined }), MEMBER, ["case_type"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ title: "  " }), MEMBER, ["title"]],
        [casesRoute.POST, "/api/hitl/cases", caseBody({ submitter: { name: "Erin" } }), MEMBER, ["submitter.role"]],
        // A ref type is lower_snake_case; the old {kind, id} shape is not a ref.
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ refs: [{ ref_type: "Ticket-Tracker", ref_key: "id", ref_value: "1" }] }),
          MEMBER,
          ["refs.0.ref_type"],
        ],
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ refs: [{ ref_type: "ticket", ref_key: "id", ref_value: "" }] }),
          MEMBER,
          ["refs.0.ref_value"],
        ],
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ refs: [{ kind: "ticket", id: "1" }] }),
          MEMBER,
          ["refs.0", "refs.0.ref_key", "refs.0.ref_type", "refs.0.ref_value"],
        ],
        // A client cannot point a case at a run: only the server ties a checkpoint's case to it.
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ refs: [{ ref_type: "run", ref_key: "id", ref_value: "r" }] }),
          MEMBER,
          ["refs.0.ref_type"],
        ],
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({
            refs: [
              { ref_type: "ticket", ref_key: "jira", ref_value: "OPS-1" },
              { ref_type: "interrupt", ref_key: "id", ref_value: "i" },
            ],
          }),
          MEMBER,
          ["refs.1.ref_type"],
        ],
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ request_id: undefined, requestId: rid() }),
          MEMBER,
          ["", "request_id"].sort(),
        ],
        // The old name of the adapter field is refused, not read.
        [
          casesRoute.POST,
          "/api/hitl/cases",
          caseBody({ adapter_id: undefined, adapter: "lgv_troubleshooting" }),
          MEMBER,
          ["", "adapter_id"].sort(),
        ],
        [`decision`, "", { request_id: rid(), decision: "maybe" }, REVIEWER, ["decision"]],
        [`decision`, "", { request_id: "", decision: "approved" }, REVIEWER, ["request_id"]],
        [`decision`, "", { request_id: rid(), decision: "approved", modifications: "x" }, REVIEWER, ["modifications"]],
        [`decision`, "", { request_id: rid(), decision: "approved", notes: "x".repeat(4001) }, REVIEWER, ["notes"]],
        [`decision`, "", { request_id: "r".repeat(201), decision: "approved" }, REVIEWER, ["request_id"]],
        [
          `decision`,
          "",
          { request_id: rid(), decision: "rejected", modifications: { site: "x" } },
          REVIEWER,
          ["modifications"],
        ],
        [
          `decision`,
          "",
          { request_id: rid(), decision: "approved", actor: { name: "Riley" } },
          REVIEWER,
          ["actor.role"],
        ],
        [`escalation`, "", { request_id: rid() }, REVIEWER, ["target"]],
        [`escalation`, "", { request_id: rid(), target: "admin", reason: "old name" }, REVIEWER, [""]],
        // The old name of the decision field is refused, not read.
        [`decision`, "", { request_id: rid(), outcome: "approved" }, REVIEWER, ["", "decision"].sort()],
        // A supersede must say why.
        [`supersede`, "", { request_id: rid(), decision: "rejected" }, ADMIN, ["notes"]],
        [`supersede`, "", { request_id: rid(), decision: "rejected", notes: "   " }, ADMIN, ["notes"]],
      ];
      const routes: Record<string, unknown> = {
        decision: decisionRoute.POST,
        "clarification-request": clarificationRequestRoute.POST,
        escalation: escalationRoute.POST,
        supersede: supersedeRoute.POST,
      };
      for (const [handlerOrName, path, body, email, paths] of cases) {
        const named = typeof handlerOrName === "string";
        const res = named
          ? await api.post(email, routes[handlerOrName], `/api/hitl/cases/${id}/${handlerOrName}`, body, on(id))
          : await api.post(email, handlerOrName, path, body);
        expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect((res.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(paths);
      }
      // A blank question or answer gets the design's own codes.
      for (const [route, name, body, code] of [
        [clarificationRequestRoute.POST, "clarification-request", { question: "   " }, "QUESTION_REQUIRED"],
        [clarificationRequestRoute.POST, "clarification-request", {}, "QUESTION_REQUIRED"],
        [clarificationRoute.POST, "clarification", { answer: "" }, "ANSWER_REQUIRED"],
      ] as const) {
        const res = await api.post(
          REVIEWER,
          route,
          `/api/hitl/cases/${id}/${name}`,
          { request_id: rid(), ...body },
          on(id),
        );
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code });
      }
      const malformed = await api.raw(REVIEWER, decisionRoute.POST, {
        method: "POST",
        path: `/api/hitl/cases/${id}/decision`,
        rawBody: "{not json",
        params: on(id),
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe("INVALID_JSON");
      const form = await api.raw(MEMBER, casesRoute.POST, {
        method: "POST",
        path: "/api/hitl/cases",
        rawBody: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("refuses oversize bodies with 413 before parsing them", async () => {
      const id = await submit();
      const before = await hitlSnapshot(suite.database);
      const huge = lgvPayload({ symptom: "x".repeat(400 * 1024) });
      const res = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody({ payload: huge }));
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ status: "error", code: "PAYLOAD_TOO_LARGE" });
      const decision = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid(), decision: "approved", modifications: { symptom: "y".repeat(400 * 1024) } },
        on(id),
      );
      expect(decision.status).toBe(413);
      const question = await api.post(
        REVIEWER,
        clarificationRequestRoute.POST,
        `/api/hitl/cases/${id}/clarification-request`,
        { request_id: rid(), question: "q".repeat(100 * 1024) },
        on(id),
      );
      expect(question.status).toBe(413);
      // Within the body limit but over the payload limit of the core: still 413, naming the field.
      const payloadOnly = await api.post(
        MEMBER,
        casesRoute.POST,
        "/api/hitl/cases",
        caseBody({ payload: lgvPayload({ evidence: [{ source: "log", observation: "z".repeat(270 * 1024) }] }) }),
      );
      expect(payloadOnly.status).toBe(413);
      expect(payloadOnly.body).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { field: "payload" } });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("answers 401 without identity", async () => {
      const res = await call(casesRoute.POST, {
        method: "POST",
        path: "/api/hitl/cases",
        body: caseBody(),
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: "error", code: "UNAUTHENTICATED" });
      const queue = await call(queueRoute.GET, { path: "/api/hitl/queue" });
      expect(queue.status).toBe(401);
    });

    it("works with an API key: the key's role decides, its name is the actor", async () => {
      const id = await submit();
      const admin = await userIdOf(suite.database, ADMIN);
      const reviewerKey = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "Triage bot", role: "reviewer", createdBy: admin },
      );
      const memberKey = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "Intake bot", role: "member", createdBy: admin },
      );
      const path = `/api/hitl/cases/${id}/decision`;
      const refused = await call(decisionRoute.POST, {
        method: "POST",
        path,
        params: on(id),
        body: { request_id: rid(), decision: "approved" },
        headers: { authorization: `Bearer ${memberKey.key}` },
      });
      expect(refused.status).toBe(403);
      const decided = await call(decisionRoute.POST, {
        method: "POST",
        path,
        params: on(id),
        body: { request_id: rid(), decision: "rejected", notes: "Duplicate of another case" },
        headers: { authorization: `Bearer ${reviewerKey.key}` },
      });
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({
        state: "rejected",
        event: { actor: { kind: "operator", id: `apikey:${reviewerKey.id}`, name: "Triage bot", role: "reviewer" } },
      });
    });

    it("records a manual escalation without changing the state", async () => {
      const id = await submit();
      const res = await api.post(
        REVIEWER,
        escalationRoute.POST,
        `/api/hitl/cases/${id}/escalation`,
        { request_id: rid(), target: "admin", notes: "Safety-relevant" },
        on(id),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        state: "pending",
        event: { type: "escalated", notes: "Safety-relevant", escalation: { level: 1, target: "admin" } },
      });
      const escalated = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?escalated=true&limit=100");
      expect((escalated.body.items as Item[]).map((i) => i.id)).toContain(id);
      const calm = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?escalated=false&limit=100");
      expect((calm.body.items as Item[]).map((i) => i.id)).not.toContain(id);
    });
  });
}
