import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import * as clarificationRequestRoute from "@/app/api/hitl/cases/[id]/clarification-request/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as historyRoute from "@/app/api/hitl/cases/[id]/history/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as supersedeRoute from "@/app/api/hitl/cases/[id]/supersede/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as decisionsRoute from "@/app/api/hitl/decisions/route";
import * as queueRoute from "@/app/api/hitl/queue/route";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";
import {
  ADMIN,
  caseBody,
  type HitlClient,
  hitlClient,
  hitlSnapshot,
  lgvPayload,
  MEMBER,
  REVIEWER,
  rid,
} from "./support";

// The REST contract as the HITL design names it: submit_case's fields, record_decision's
// `decision`/`notes`/`actor`, supersede_decision, revising an open question, and refs as
// {ref_type, ref_key, ref_value}.

interface EventBody {
  id: string;
  type: string;
  outcome: string | null;
  notes: string;
  supersedesEventId: string | null;
  eventJson: string;
  actor: { kind: string; id: string; name: string; role: string; team: string | null };
}

for (const target of appTargets()) {
  describe(`HITL design contract over REST on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api: HitlClient = hitlClient();
    const on = (id: string) => ({ id });

    async function submit(body: Record<string, unknown> = {}) {
      const res = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", caseBody(body));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.caseId as string;
    }

    async function decide(id: string, decision: "approved" | "rejected", notes = "") {
      const res = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid("decide"), decision, notes },
        on(id),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.event as EventBody;
    }

    const history = async (id: string) => {
      const res = await api.get(REVIEWER, historyRoute.GET, `/api/hitl/cases/${id}/history`, on(id));
      expect(res.status).toBe(200);
      return res.body.items as EventBody[];
    };

    const caseCount = async () => {
      const res = await api.get(ADMIN, casesRoute.GET, "/api/hitl/cases?limit=100");
      expect(res.status).toBe(200);
      return res.body.count as number;
    };

    it("submits a case with every design field and reads them back", async () => {
      const memberId = await userIdOf(suite.database, MEMBER);
      const payload = lgvPayload({ lgv_id: "LGV-11" });
      const body = caseBody({
        case_type: "incident",
        title: "LGV-11 stops at the dock entrance",
        summary: "LGV-11 loses navigation at dock 4; the fleet manager logs NAV_LOST.",
        payload,
        confidence: "medium",
        submitter: { name: "Dock agent", role: "LGV support engineer", team: "Lyon ops" },
        priority: "critical",
        refs: [
          { ref_type: "ticket", ref_key: "jira", ref_value: "OPS-11" },
          { ref_type: "neo4j_node", ref_key: "name", ref_value: "LGV-11" },
        ],
      });
      const submitted = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", body);
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
      expect(submitted.body).toMatchObject({
        status: "success",
        state: "pending",
        replayed: false,
        event: {
          type: "submitted",
          notes: "",
          actor: { kind: "operator", id: memberId, name: "Dock agent", role: "LGV support engineer", team: "Lyon ops" },
        },
      });
      const id = submitted.body.caseId as string;

      const read = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${id}`, on(id));
      expect(read.status).toBe(200);
      const expectedHash = createHash("sha256")
        .update(canonicalize(payload) ?? "")
        .digest("hex");
      expect(read.body.case).toMatchObject({
        id,
        adapter: "lgv_troubleshooting",
        caseType: "incident",
        title: "LGV-11 stops at the dock entrance",
        summary: "LGV-11 loses navigation at dock 4; the fleet manager logs NAV_LOST.",
        confidence: "medium",
        priority: "critical",
        payload,
        payloadHash: expectedHash,
        submitter: { id: memberId, name: "Dock agent", role: "LGV support engineer", team: "Lyon ops" },
        createdBy: memberId,
        updatedAt: expect.any(Number),
        state: { state: "pending", priority: "critical" },
      });
      expect((read.body.case as { payloadHash: string }).payloadHash).toMatch(/^[0-9a-f]{64}$/);
      // Refs in the design's three parts, exactly these (none added, none renamed).
      expect((read.body.case as { refs: unknown[] }).refs).toEqual(
        expect.arrayContaining([
          { ref_type: "ticket", ref_key: "jira", ref_value: "OPS-11" },
          { ref_type: "neo4j_node", ref_key: "name", ref_value: "LGV-11" },
        ]),
      );
      expect((read.body.case as { refs: unknown[] }).refs).toHaveLength(2);
      // The submission event records the envelope in its canonical JSON.
      const [first] = read.body.history as EventBody[];
      expect(JSON.parse(first.eventJson)).toMatchObject({
        event_type: "submitted",
        case: { case_type: "incident", payload_hash_sha256: expectedHash, priority: "critical", confidence: "medium" },
      });

      // The inbox shows the new fields too.
      const queue = await api.get(REVIEWER, queueRoute.GET, "/api/hitl/queue?priority=critical&limit=100");
      expect(queue.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id,
            caseType: "incident",
            title: "LGV-11 stops at the dock entrance",
            confidence: "medium",
            priority: "critical",
          }),
        ]),
      );
    });

    it("refuses bad submissions with 400 VALIDATION_FAILED naming the field, and opens no case", async () => {
      await submit();
      const count = await caseCount();
      const before = await hitlSnapshot(suite.database);
      const bad: [Record<string, unknown>, string][] = [
        [caseBody({ submitter: undefined }), "submitter"],
        [caseBody({ priority: "urgent" }), "priority"],
        [caseBody({ confidence: "sure" }), "confidence"],
        [caseBody({ refs: [{ ref_type: "run", ref_key: "id", ref_value: "run-1" }] }), "refs.0.ref_type"],
      ];
      for (const [body, field] of bad) {
        const res = await api.post(MEMBER, casesRoute.POST, "/api/hitl/cases", body);
        expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect((res.body.details as { path: string }[]).map((d) => d.path)).toEqual([field]);
      }
      expect(await caseCount()).toBe(count);
      expect(await hitlSnapshot(suite.database)).toEqual(before);
    });

    it("records a decision's notes and the actor's display fields; the principal is the session's user", async () => {
      const id = await submit();
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const before = await hitlSnapshot(suite.database);
      const old = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid(), outcome: "approved", reason: "old names" },
        on(id),
      );
      expect(old.status).toBe(400);
      expect(old.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect((old.body.details as { path: string }[]).map((d) => d.path)).toEqual(
        expect.arrayContaining(["decision", ""]),
      );
      expect(await hitlSnapshot(suite.database)).toEqual(before);

      const actor = { name: "Riley R.", role: "Shift lead", team: "Lyon ops" };
      const decided = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid("decide"), decision: "rejected", notes: "Reflectors were fine; look at the scanner", actor },
        on(id),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const expected = {
        type: "decision_recorded",
        outcome: "rejected",
        notes: "Reflectors were fine; look at the scanner",
        actor: { kind: "operator", id: reviewerId, ...actor },
      };
      expect(decided.body).toMatchObject({ status: "success", state: "rejected", event: expected });
      const events = await history(id);
      expect(events.map((e) => e.type)).toEqual(["submitted", "decision_recorded"]);
      expect(events[1]).toMatchObject(expected);
      expect(JSON.parse(events[1].eventJson)).toMatchObject({
        notes: "Reflectors were fine; look at the scanner",
        actor: { id: reviewerId, team: "Lyon ops" },
      });
    });

    it("lets an admin supersede a decision with a reason; the first decision stays in the log", async () => {
      const id = await submit();
      const first = await decide(id, "approved", "Looks right");
      const before = await hitlSnapshot(suite.database);

      const asReviewer = await api.post(
        REVIEWER,
        supersedeRoute.POST,
        `/api/hitl/cases/${id}/supersede`,
        { request_id: rid(), decision: "rejected", notes: "Second thoughts" },
        on(id),
      );
      expect(asReviewer.status).toBe(403);
      expect(asReviewer.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      const noNotes = await api.post(
        ADMIN,
        supersedeRoute.POST,
        `/api/hitl/cases/${id}/supersede`,
        { request_id: rid(), decision: "rejected" },
        on(id),
      );
      expect(noNotes.status).toBe(400);
      expect(noNotes.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED", details: [{ path: "notes" }] });
      expect(await hitlSnapshot(suite.database)).toEqual(before);

      const adminId = await userIdOf(suite.database, ADMIN);
      const superseded = await api.post(
        ADMIN,
        supersedeRoute.POST,
        `/api/hitl/cases/${id}/supersede`,
        { request_id: rid("supersede"), decision: "rejected", notes: "The scanner, not the reflectors, is at fault" },
        on(id),
      );
      expect(superseded.status, JSON.stringify(superseded.body)).toBe(200);
      expect(superseded.body).toMatchObject({
        status: "success",
        state: "rejected",
        replayed: false,
        event: {
          type: "decision_superseded",
          outcome: "rejected",
          notes: "The scanner, not the reflectors, is at fault",
          supersedesEventId: first.id,
          actor: { kind: "operator", id: adminId, role: "admin" },
        },
      });
      const read = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${id}`, on(id));
      expect(read.body.case).toMatchObject({ state: { state: "rejected", outcome: "rejected" } });
      const events = await history(id);
      expect(events.map((e) => e.type)).toEqual(["submitted", "decision_recorded", "decision_superseded"]);
      expect(events[1]).toMatchObject({ id: first.id, outcome: "approved", notes: "Looks right" });
      expect(events[2]).toMatchObject({ type: "decision_superseded", supersedesEventId: first.id });

      // A late decider now sees the decision that stands: the superseding one.
      const late = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${id}/decision`,
        { request_id: rid(), decision: "approved" },
        on(id),
      );
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({
        code: "ALREADY_TERMINAL",
        details: {
          state: "rejected",
          decision: { event_id: events[2].id, event_type: "decision_superseded", decision_outcome: "rejected" },
        },
      });
      // The decision log lists both, the second naming the first.
      const log = await api.get(ADMIN, decisionsRoute.GET, `/api/hitl/decisions?actor=${adminId}`);
      expect(log.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ caseId: id, outcome: "rejected", supersedesEventId: first.id }),
        ]),
      );
    });

    it("refuses to supersede a case nobody decided with INVALID_STATE_TRANSITION", async () => {
      const id = await submit();
      const before = await hitlSnapshot(suite.database);
      const res = await api.post(
        ADMIN,
        supersedeRoute.POST,
        `/api/hitl/cases/${id}/supersede`,
        { request_id: rid(), decision: "approved", notes: "Nothing to supersede yet" },
        on(id),
      );
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        status: "error",
        code: "INVALID_STATE_TRANSITION",
        from_state: "pending",
        requested_action: "supersede_decision",
      });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
      expect(await history(id)).toHaveLength(1);
    });

    it("revises an open question when asked again with a different one, and refuses the same one", async () => {
      const id = await submit();
      const ask = (question: string) =>
        api.post(
          REVIEWER,
          clarificationRequestRoute.POST,
          `/api/hitl/cases/${id}/clarification-request`,
          { request_id: rid("ask"), question, notes: "" },
          on(id),
        );
      const first = await ask("Which firmware does LGV-07 run?");
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ state: "needs_clarification" });

      const revised = await ask("Which firmware and which scanner model does LGV-07 have?");
      expect(revised.status, JSON.stringify(revised.body)).toBe(200);
      expect(revised.body).toMatchObject({
        state: "needs_clarification",
        event: {
          type: "needs_clarification",
          fromState: "needs_clarification",
          question: "Which firmware and which scanner model does LGV-07 have?",
        },
      });
      const read = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${id}`, on(id));
      expect(read.body.case).toMatchObject({
        state: {
          state: "needs_clarification",
          openQuestion: "Which firmware and which scanner model does LGV-07 have?",
        },
      });

      const before = await hitlSnapshot(suite.database);
      const same = await ask("Which firmware and which scanner model does LGV-07 have?");
      expect(same.status).toBe(409);
      expect(same.body).toMatchObject({
        code: "INVALID_STATE_TRANSITION",
        from_state: "needs_clarification",
        requested_action: "request_clarification",
      });
      expect(await hitlSnapshot(suite.database)).toEqual(before);
      expect((await history(id)).map((e) => e.type)).toEqual([
        "submitted",
        "needs_clarification",
        "needs_clarification",
      ]);
    });

    it("finds cases by ref_type and ref_value (ref_key optional), and refuses ref_key alone", async () => {
      const id = await submit({ refs: [{ ref_type: "ticket", ref_key: "jira", ref_value: "OPS-12" }] });
      await submit({ refs: [{ ref_type: "ticket", ref_key: "jira", ref_value: "OPS-13" }] });
      const list = async (query: string) => {
        const res = await api.get(REVIEWER, casesRoute.GET, `/api/hitl/cases?limit=100&${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.items as { id: string }[]).map((i) => i.id);
      };
      expect(await list("ref_type=ticket&ref_value=OPS-12")).toEqual([id]);
      expect(await list("ref_type=ticket&ref_key=jira&ref_value=OPS-12")).toEqual([id]);
      expect(await list("ref_type=ticket&ref_key=servicenow&ref_value=OPS-12")).toEqual([]);
      expect(await list("ref_type=service&ref_value=OPS-12")).toEqual([]);

      const alone = await api.get(REVIEWER, casesRoute.GET, "/api/hitl/cases?ref_key=jira");
      expect(alone.status).toBe(400);
      expect(alone.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect((alone.body.details as { path: string }[]).map((d) => d.path)).toContain("ref_key");
    });
  });
}
