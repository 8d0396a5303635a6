import { createHash, randomUUID } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { vector } from "@electric-sql/pglite-pgvector";
import canonicalize from "canonicalize";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, rowsOf, schema, setActiveDatabase } from "@/lib/db";
import {
  caseHistory,
  decisionLog,
  getCase,
  listCases,
  projectionDrift,
  provideClarification,
  rebuildProjection,
  recordDecision,
  registerDefaultAdapters,
  requestClarification,
  submitCase,
  summarize,
  supersedeDecision,
} from "@/lib/hitl";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { actors, lgvPayload, refusal, rid, submitLgv } from "./support";

/** SHA-256 of a value's RFC 8785 canonical JSON, computed here independently of lib/hitl. */
const sha256OfCanonical = (value: unknown) =>
  createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");

for (const target of appTargets()) {
  describe(`HITL design fields on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const demo = () => actors(suite.tenants, "demo");
    const scope = () => ({ tenantId: suite.tenants.demo });

    beforeAll(async () => {
      await registerDefaultAdapters(scope());
    });

    it("submitCase keeps every design field, and the submitter's id is always the principal's", async () => {
      // Keys out of order and non-ASCII text: only RFC 8785 canonical JSON hashes it the same everywhere.
      const payload = lgvPayload({ site: "Lyon DC2 — quai nord", lgv_id: "LGV-07" });
      expect(JSON.stringify(payload)).not.toBe(canonicalize(payload));
      const submitter = { name: "Nav Agent", role: "LGV support engineer", team: "Fleet ops", id: "caller-own-id" };
      const result = await submitCase(demo().member, {
        adapter: "lgv_troubleshooting",
        caseType: "question",
        title: "LGV-07 stops at the dock entrance",
        summary: "The fleet manager logs NAV_LOST each night at 03:12; is a reflector survey the next step?",
        payload,
        requestId: rid(),
        priority: "high",
        confidence: "low",
        submitter,
      });
      const view = await getCase(demo().reviewer, result.caseId);
      expect(view).toMatchObject({
        caseType: "question",
        title: "LGV-07 stops at the dock entrance",
        summary: "The fleet manager logs NAV_LOST each night at 03:12; is a reflector survey the next step?",
        priority: "high",
        confidence: "low",
        submitter: { id: "demo-member", name: "Nav Agent", role: "LGV support engineer", team: "Fleet ops" },
        createdBy: "demo-member",
      });
      // The caller's summary wins over the adapter's formatter.
      expect(view.summary).not.toBe(summarize("lgv_troubleshooting", payload));
      expect(view.payloadHash).toMatch(/^[0-9a-f]{64}$/);
      expect(view.payloadHash).toBe(sha256OfCanonical(payload));
      expect(view.payloadHash).not.toBe(createHash("sha256").update(JSON.stringify(payload)).digest("hex"));
      expect(view.updatedAt).toBe(view.createdAt);

      // The submission event: the submitter's display fields, the principal's id.
      expect(result.event.actor).toEqual({
        kind: "operator",
        id: "demo-member",
        name: "Nav Agent",
        role: "LGV support engineer",
        team: "Fleet ops",
      });
      const recorded = JSON.parse(result.event.eventJson) as Record<string, unknown>;
      expect(canonicalize(recorded)).toBe(result.event.eventJson);
      expect(recorded).toMatchObject({
        event_id: result.event.id,
        case_id: result.caseId,
        event_type: "submitted",
        actor: { id: "demo-member", name: "Nav Agent", principal_role: "member" },
        case: {
          adapter_id: "lgv_troubleshooting",
          case_type: "question",
          title: "LGV-07 stops at the dock entrance",
          priority: "high",
          confidence: "low",
          payload_hash_sha256: view.payloadHash,
        },
        submitter_as_given: submitter,
      });
      expect((await caseHistory(demo().reviewer, result.caseId))[0].eventJson).toBe(result.event.eventJson);
    });

    it("defaults what a server-side caller leaves out: review, the summary's first line, the principal", async () => {
      const payload = lgvPayload({ lgv_id: "LGV-31" });
      const { caseId, event } = await submitLgv(demo().member, payload);
      const view = await getCase(demo().reviewer, caseId);
      expect(view).toMatchObject({
        caseType: "review",
        title: summarize("lgv_troubleshooting", payload).split("\n")[0].trim(),
        confidence: null,
        priority: "normal",
        submitter: { id: "demo-member", name: "Erin Expert", role: "member", team: null },
        payloadHash: sha256OfCanonical(payload),
      });
      expect(JSON.parse(event.eventJson)).not.toHaveProperty("submitter_as_given");
    });

    it("records notes and who acted: the caller's display fields, always the principal's id", async () => {
      const { caseId } = await submitLgv(demo().member);
      const asked = await requestClarification(demo().reviewer, caseId, {
        requestId: rid(),
        question: "Which firmware is LGV-07 on?",
        notes: "The log points at the navigation stack.",
        actor: { name: "Riley R.", role: "Fleet reviewer", team: "Ops Lyon", kind: "operator", id: "someone-else" },
      });
      expect(asked.event).toMatchObject({
        notes: "The log points at the navigation stack.",
        actor: { kind: "operator", id: "demo-reviewer", name: "Riley R.", role: "Fleet reviewer", team: "Ops Lyon" },
      });
      const askedJson = JSON.parse(asked.event.eventJson);
      expect(askedJson).toMatchObject({
        notes: "The log points at the navigation stack.",
        actor: { id: "demo-reviewer", principal_role: "reviewer", team: "Ops Lyon" },
        actor_as_given: { id: "someone-else", name: "Riley R." },
      });

      // An agent answers on the submitter's behalf: under the submitter's own name, which the
      // server knows (an answer speaks for whoever gave it); role and kind are display fields.
      const answered = await provideClarification(demo().member, caseId, {
        requestId: rid(),
        answer: "4.2.1",
        actor: { name: "Nav Agent", role: "troubleshooting agent", kind: "agent" },
      });
      expect(answered.event).toMatchObject({
        notes: "",
        actor: { kind: "agent", id: "demo-member", name: "Erin Expert", role: "troubleshooting agent", team: null },
      });

      // No display fields: the principal's own name and role, as an operator.
      const decided = await recordDecision(demo().reviewer, caseId, {
        requestId: rid(),
        outcome: "approved",
        notes: "Firmware 4.2.1 has the known reflector bug.",
      });
      expect(decided.event).toMatchObject({
        notes: "Firmware 4.2.1 has the known reflector bug.",
        actor: { kind: "operator", id: "demo-reviewer", name: "Riley Reviewer", role: "reviewer", team: null },
      });
      expect(JSON.parse(decided.event.eventJson)).not.toHaveProperty("actor_as_given");
      expect((await caseHistory(demo().reviewer, caseId)).map((e) => [e.type, e.notes, e.actor.kind])).toEqual([
        ["submitted", "", "operator"],
        ["needs_clarification", "The log points at the navigation stack.", "operator"],
        ["clarification_provided", "", "agent"],
        ["decision_recorded", "Firmware 4.2.1 has the known reflector bug.", "operator"],
      ]);

      // Vigil itself acts as `system`, whatever display it is given.
      const other = await submitLgv(demo().member);
      const timedOut = await recordDecision(demo().system, other.caseId, {
        requestId: rid(),
        outcome: "rejected",
        notes: "Timed out.",
        actor: { name: "Timeout sweep", role: "scheduler", kind: "agent" },
      });
      expect(timedOut.event.actor).toMatchObject({ kind: "system", id: "system", name: "Timeout sweep" });
      const bare = await recordDecision(demo().system, (await submitLgv(demo().member)).caseId, {
        requestId: rid(),
        outcome: "rejected",
      });
      expect(bare.event.actor).toEqual({ kind: "system", id: "system", name: "Vigil", role: "system", team: null });
      expect((await decisionLog(scope(), { actorId: "system" })).items[0].actor).toMatchObject({ kind: "system" });
    });

    it("revises the open question while the case waits; the same question again is refused", async () => {
      const { caseId } = await submitLgv(demo().member);
      const first = await requestClarification(demo().reviewer, caseId, {
        requestId: rid(),
        question: "Which aisle?",
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const revised = await requestClarification(demo().reviewer, caseId, {
        requestId: rid(),
        question: "Which aisle, and which reflector map version?",
        notes: "Narrowed down.",
      });
      expect(revised).toMatchObject({ state: "needs_clarification", replayed: false });
      expect(revised.event).toMatchObject({
        type: "needs_clarification",
        fromState: "needs_clarification",
        toState: "needs_clarification",
        seq: 3,
      });
      const history = await caseHistory(demo().reviewer, caseId);
      expect(history.map((e) => [e.type, e.question])).toEqual([
        ["submitted", null],
        ["needs_clarification", "Which aisle?"],
        ["needs_clarification", "Which aisle, and which reflector map version?"],
      ]);
      const waiting = (await getCase(demo().reviewer, caseId)).state;
      expect(waiting).toMatchObject({
        state: "needs_clarification",
        openQuestion: "Which aisle, and which reflector map version?",
        needsClarificationSince: first.event.createdAt,
        clarificationRounds: 1,
        lastEventId: revised.event.id,
      });
      expect(revised.event.createdAt).toBeGreaterThan(first.event.createdAt);

      const same = await refusal(
        requestClarification(demo().reviewer, caseId, {
          requestId: rid(),
          question: "Which aisle, and which reflector map version?",
        }),
      );
      expect(same).toMatchObject({
        kind: "conflict",
        code: "INVALID_STATE_TRANSITION",
        details: { from_state: "needs_clarification", requested_action: "request_clarification" },
      });
      expect(await caseHistory(demo().reviewer, caseId)).toHaveLength(3);

      const answered = await provideClarification(demo().member, caseId, { requestId: rid(), answer: "Aisle 4, v12" });
      expect(answered.state).toBe("pending");
      expect((await getCase(demo().reviewer, caseId)).state).toMatchObject({
        state: "pending",
        openQuestion: null,
        needsClarificationSince: null,
        clarificationRounds: 1,
      });
      expect((await projectionDrift(scope())).drifted).toBe(false);
    });

    it("lets an admin supersede the decision that stands, with a reason; the first stays in the log", async () => {
      const { caseId } = await submitLgv(demo().member);
      const first = await recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "approved" });

      expect(
        await refusal(
          supersedeDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "rejected", notes: "Wrong LGV." }),
        ),
      ).toMatchObject({ kind: "forbidden", code: "FORBIDDEN" });
      for (const notes of ["", "   ", undefined]) {
        const refused = await refusal(
          supersedeDecision(demo().admin, caseId, { requestId: rid(), outcome: "rejected", notes }),
        );
        expect(refused).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
        expect(refused.details).toEqual([expect.objectContaining({ path: "notes" })]);
      }
      expect(await caseHistory(demo().reviewer, caseId)).toHaveLength(2);

      const requestId = rid();
      const superseded = await supersedeDecision(demo().admin, caseId, {
        requestId,
        outcome: "rejected",
        notes: "The survey showed the reflectors were fine; the fault is the scanner.",
      });
      expect(superseded).toMatchObject({ caseId, state: "rejected", replayed: false });
      expect(superseded.event).toMatchObject({
        type: "decision_superseded",
        fromState: "approved",
        toState: "rejected",
        outcome: "rejected",
        supersedesEventId: first.event.id,
        notes: "The survey showed the reflectors were fine; the fault is the scanner.",
        actor: { id: "demo-admin", kind: "operator" },
      });
      expect(JSON.parse(superseded.event.eventJson)).toMatchObject({ supersedes_event_id: first.event.id });
      const after = await getCase(demo().reviewer, caseId);
      expect(after.state).toMatchObject({
        state: "rejected",
        outcome: "rejected",
        decisionEventId: superseded.event.id,
        decidedBy: "demo-admin",
        lastEventId: superseded.event.id,
      });
      const history = await caseHistory(demo().reviewer, caseId);
      expect(history.map((e) => [e.type, e.outcome, e.supersedesEventId])).toEqual([
        ["submitted", null, null],
        ["decision_recorded", "approved", null],
        ["decision_superseded", "rejected", first.event.id],
      ]);
      // A retry of the supersede replays it.
      expect(
        await supersedeDecision(demo().admin, caseId, {
          requestId,
          outcome: "rejected",
          notes: "The survey showed the reflectors were fine; the fault is the scanner.",
        }),
      ).toEqual({ ...superseded, replayed: true });
      // A decision on it now names the superseding one as the decision that stands.
      const late = await refusal(recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "approved" }));
      expect(late).toMatchObject({
        code: "ALREADY_TERMINAL",
        details: {
          state: "rejected",
          decision: {
            event_id: superseded.event.id,
            event_type: "decision_superseded",
            decision_outcome: "rejected",
            actor_id: "demo-admin",
            notes: "The survey showed the reflectors were fine; the fault is the scanner.",
          },
        },
      });

      // Superseding again supersedes the superseding decision.
      const again = await supersedeDecision(demo().admin, caseId, {
        requestId: rid(),
        outcome: "approved",
        modifications: { proposed_next_action: "Replace the scanner on LGV-07" },
        notes: "Approved after all, with the scanner replaced.",
      });
      expect(again.event).toMatchObject({
        fromState: "rejected",
        toState: "approved",
        supersedesEventId: superseded.event.id,
        modifications: { proposed_next_action: "Replace the scanner on LGV-07" },
      });
      expect((await getCase(demo().reviewer, caseId)).state).toMatchObject({
        state: "approved",
        outcome: "approved",
        decisionEventId: again.event.id,
      });
      expect(await caseHistory(demo().reviewer, caseId)).toHaveLength(4);
      const log = await decisionLog(scope(), { actorId: "demo-admin" });
      expect(log.items.filter((d) => d.caseId === caseId).map((d) => d.supersedesEventId)).toEqual([
        superseded.event.id,
        first.event.id,
      ]);

      // Nothing decided yet: nothing to supersede.
      const open = await submitLgv(demo().member);
      expect(
        await refusal(
          supersedeDecision(demo().admin, open.caseId, { requestId: rid(), outcome: "rejected", notes: "x" }),
        ),
      ).toMatchObject({
        kind: "conflict",
        code: "INVALID_STATE_TRANSITION",
        details: { from_state: "pending", requested_action: "supersede_decision" },
      });
      expect(await caseHistory(demo().reviewer, open.caseId)).toHaveLength(1);

      // The log folds to the live projection, supersedes and revisions included.
      const live = await getCase(demo().reviewer, caseId);
      expect((await projectionDrift(scope())).drifted).toBe(false);
      expect((await rebuildProjection(scope())).repaired).toEqual([]);
      expect(await getCase(demo().reviewer, caseId)).toEqual(live);
    });

    it("takes refs of any lower_snake_case type, keeps run and interrupt for the server, and filters by them", async () => {
      const ticket = { ref_type: "ticket", ref_key: "jira", ref_value: "OPS-12" };
      const node = { ref_type: "neo4j_node", ref_key: "name", ref_value: "LGV-07" };
      const { caseId } = await submitCase(demo().member, {
        adapter: "lgv_troubleshooting",
        payload: lgvPayload(),
        requestId: rid(),
        refs: [ticket, node],
      });
      const view = await getCase(demo().reviewer, caseId);
      expect(view.refs).toHaveLength(2);
      expect(view.refs).toEqual(expect.arrayContaining([ticket, node]));
      const other = await submitCase(demo().member, {
        adapter: "lgv_troubleshooting",
        payload: lgvPayload(),
        requestId: rid(),
        refs: [{ ref_type: "ticket", ref_key: "servicenow", ref_value: "OPS-12" }],
      });

      for (const [i, refs] of [
        [1, [ticket, { ref_type: "run", ref_key: "id", ref_value: randomUUID() }]],
        [0, [{ ref_type: "interrupt", ref_key: "id", ref_value: "int-1" }]],
      ] as const) {
        const requestId = rid();
        const refused = await refusal(
          submitCase(demo().member, {
            adapter: "lgv_troubleshooting",
            payload: lgvPayload(),
            requestId,
            refs: [...refs],
          }),
        );
        expect(refused).toMatchObject({ kind: "invalid", code: "VALIDATION_FAILED" });
        expect(refused.details).toEqual([expect.objectContaining({ path: `refs.${i}.ref_type` })]);
      }
      expect(
        await refusal(
          submitCase(demo().member, {
            adapter: "lgv_troubleshooting",
            payload: lgvPayload(),
            requestId: rid(),
            refs: [{ ref_type: "Jira Ticket", ref_key: "id", ref_value: "OPS-12" }],
          }),
        ),
      ).toMatchObject({ code: "VALIDATION_FAILED" });

      const ids = async (ref: { ref_type: string; ref_key?: string; ref_value: string }) =>
        (await listCases(scope(), { ref }, { limit: 100 })).items.map((c) => c.id).sort();
      expect(await ids(ticket)).toEqual([caseId]);
      expect(await ids({ ref_type: "ticket", ref_value: "OPS-12" })).toEqual([caseId, other.caseId].sort());
      expect(await ids({ ref_type: "ticket", ref_key: "id", ref_value: "OPS-12" })).toEqual([]);
      expect(await ids({ ref_type: "neo4j_node", ref_value: "LGV-07" })).toEqual([caseId]);
      expect(await ids({ ref_type: "neo4j_node", ref_key: "name", ref_value: "LGV-08" })).toEqual([]);
    });
  });
}

// ---- migration 0021 on rows written before it --------------------------------------------------

const MIGRATIONS = path.resolve(import.meta.dirname, "../../drizzle");

/** The repository's migrations up to and including `lastIdx`, in a folder of their own. */
async function migrationsUpTo(dir: string, lastIdx: number): Promise<string> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const entries = journal.entries.filter((e) => e.idx <= lastIdx);
  await mkdir(path.join(dir, "meta"), { recursive: true });
  await writeFile(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    await copyFile(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

describe("migration 0021 carries legacy HITL rows over to the design's columns", () => {
  let dir: string;
  let client: PGlite;
  let db: Db;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-0021-"));
    client = await PGlite.create("memory://", { extensions: { vector, pgcrypto } });
    db = drizzle(client, { schema }) as unknown as Db;
  });

  afterAll(async () => {
    setActiveDatabase(undefined);
    await client?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("applies 0021 over rows of 0020's schema", async () => {
    const upTo20 = await migrationsUpTo(dir, 20);
    expect((await readdir(upTo20)).filter((f) => f.endsWith(".sql"))).toHaveLength(21);
    await migrate(db as never, { migrationsFolder: upTo20 });
    const columns = rowsOf<{ column_name: string }>(
      await db.execute(sql`select column_name from information_schema.columns where table_name = 'hitl_events'`),
    ).map((c) => c.column_name);
    expect(columns).toContain("reason");
    expect(columns).not.toContain("notes");

    // A case as the code before 0021 wrote it (the owner bypasses row-level security).
    const tenantId = randomUUID();
    const caseId = `HITL-${randomUUID()}`;
    const submittedId = `HEV-${randomUUID()}`;
    const decidedId = `HEV-${randomUUID()}`;
    const payload = lgvPayload();
    const at = 1_700_000_000_000;
    await db.execute(sql`insert into tenants (id, slug, name) values (${tenantId}, 'legacy', 'Legacy')`);
    await db.execute(sql`insert into hitl_cases (id, tenant_id, adapter, schema_version, payload, summary, request_id,
        priority, created_by, created_at)
      values (${caseId}, ${tenantId}, 'lgv_troubleshooting', 1, ${JSON.stringify(payload)}::jsonb,
        'LGV-07 at Lyon DC2: Re-survey reflectors in aisle 4', 'legacy-submit', 'urgent', 'legacy-user', ${at})`);
    await db.execute(sql`insert into hitl_events (id, tenant_id, case_id, seq, type, request_id, intent_hash,
        from_state, to_state, actor_id, actor_name, actor_role, reason, created_at)
      values (${submittedId}, ${tenantId}, ${caseId}, 1, 'case_submitted', 'legacy-submit', 'h', null, 'pending',
        'legacy-user', null, 'member', null, ${at})`);
    await db.execute(sql`insert into hitl_events (id, tenant_id, case_id, seq, type, request_id, intent_hash,
        from_state, to_state, actor_id, actor_name, actor_role, outcome, reason, created_at)
      values (${decidedId}, ${tenantId}, ${caseId}, 2, 'decision_recorded', 'legacy-timeout', 'h', 'pending',
        'rejected', 'system', 'Vigil', 'system', 'rejected', 'Timed out.', ${at + 1000})`);
    await db.execute(sql`insert into hitl_state (case_id, tenant_id, adapter, state, last_seq, last_event_id, outcome,
        decision_event_id, decided_by, decided_at, clarification_rounds, priority, escalation_level, created_at,
        updated_at)
      values (${caseId}, ${tenantId}, 'lgv_troubleshooting', 'rejected', 2, ${decidedId}, 'rejected', ${decidedId},
        'system', ${at + 1000}, 0, 'urgent', 0, ${at}, ${at + 1000})`);
    await db.execute(sql`insert into hitl_case_refs (tenant_id, case_id, kind, ref_id, created_at)
      values (${tenantId}, ${caseId}, 'external', 'TICKET-9', ${at})`);

    // The repository's migrations folder: only 0021 is pending.
    await migrate(db as never, { migrationsFolder: MIGRATIONS });

    const [kase] = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from hitl_cases where case_id = ${caseId}`),
    );
    expect(kase).toMatchObject({
      priority: "critical",
      case_type: "review",
      title: "LGV-07 at Lyon DC2: Re-survey reflectors in aisle 4",
      summary: "LGV-07 at Lyon DC2: Re-survey reflectors in aisle 4",
      submitter_id: "legacy-user",
      submitter_name: "legacy-user",
      submitter_role: "member",
      confidence: null,
      adapter_id: "lgv_troubleshooting",
    });
    expect(kase.payload_hash_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(kase.updated_at_ms)).toBe(at);

    const events = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from hitl_events where case_id = ${caseId} order by seq`),
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      event_id: submittedId,
      event_type: "submitted",
      notes: "",
      actor_name: "legacy-user",
      actor_kind: "operator",
      principal_role: "member",
      supersedes_event_id: null,
    });
    expect(events[1]).toMatchObject({
      event_type: "decision_recorded",
      decision_outcome: "rejected",
      notes: "Timed out.",
      actor_name: "Vigil",
      actor_kind: "system",
      principal_role: "system",
    });
    for (const event of events) {
      expect(event.event_json).not.toBeNull();
      expect(JSON.parse(event.event_json as string)).toMatchObject({
        event_id: event.event_id,
        case_id: caseId,
        event_type: event.event_type,
        notes: event.notes,
        actor: { kind: event.actor_kind, id: event.actor_id, name: event.actor_name },
      });
    }

    const [state] = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from hitl_state where case_id = ${caseId}`),
    );
    expect(state).toMatchObject({
      current_state: "rejected",
      active_decision_outcome: "rejected",
      active_terminal_event_id: decidedId,
      priority: "critical",
    });
    const refs = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from hitl_case_refs where case_id = ${caseId}`),
    );
    expect(refs).toEqual([expect.objectContaining({ ref_type: "external", ref_key: "id", ref_value: "TICKET-9" })]);

    // Today's code reads the carried-over case, and its log still folds to its projection.
    setActiveDatabase({ db, kind: "pglite", vector: false, close: async () => {} });
    const view = await getCase({ tenantId }, caseId);
    expect(view).toMatchObject({
      priority: "critical",
      caseType: "review",
      submitter: { id: "legacy-user", name: "legacy-user", role: "member", team: null },
      refs: [{ ref_type: "external", ref_key: "id", ref_value: "TICKET-9" }],
      state: { state: "rejected", decisionEventId: decidedId },
    });
    const history = await caseHistory({ tenantId }, caseId);
    expect(history.map((e) => [e.type, e.notes, e.actor.kind])).toEqual([
      ["submitted", "", "operator"],
      ["decision_recorded", "Timed out.", "system"],
    ]);
    expect((await projectionDrift({ tenantId })).drifted).toBe(false);
  });
});
