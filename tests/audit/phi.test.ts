import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as phiRoute from "@/app/api/audit/phi/route";
import * as documentRoute from "@/app/api/knowledge/documents/[id]/route";
import * as documentsRoute from "@/app/api/knowledge/documents/route";
import type { PhiAccessItem } from "@/lib/audit/contract";
import { rowsOf, schema } from "@/lib/db";
import { classify, drainTrace, recordTrace, type TraceEvent } from "@/lib/trace";
import type { DataClassification } from "@/lib/trace/contract";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { postChat, principal } from "../chat/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

// Fixture events are dated May 2019, before anything the seed or the chat turns create, so a
// date range picks exactly them.
const MAY = "from=2019-05-01&to=2019-05-31";
const ORDER: readonly DataClassification[] = ["public", "confidential", "restricted", "phi"];
const highest = (classes: (DataClassification | null | undefined)[]) =>
  classes.reduce<DataClassification | null>(
    (top, c) => (c && (top === null || ORDER.indexOf(c) > ORDER.indexOf(top)) ? c : top),
    null,
  );

const PHI_TEXT =
  "# Zorvexa hepatotoxicity report\n\nPatient Quillon Marsh, born 1961, developed jaundice on day 12 of Zorvexa dosing. Zorvexa was stopped.";

interface TraceRow {
  event_type: string;
  phi_accessed: boolean;
  phi_fields: string[] | null;
  data_classification: string | null;
  event_data: Record<string, unknown>;
}

for (const target of appTargets()) {
  describe(`PHI access on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();

    const retrievalOf = async (runId: string) => {
      await drainTrace();
      const rows = rowsOf<TraceRow>(
        await suite.database.db.execute(sql`
          select event_type, phi_accessed, phi_fields, data_classification, event_data from execution_trace
          where run_id = ${runId} and event_type = 'tool_result' and event_data->>'tool' = 'knowledge_base'`),
      );
      expect(rows).toHaveLength(1);
      return rows[0];
    };
    const sourcesOf = (chunks: { type: string }[]) =>
      (chunks.find((c) => c.type === "data-sources") as unknown as { data: { items: { documentId: string }[] } }).data
        .items;

    it("marks the retrieval that read a phi document, and not one that read public documents", async () => {
      const uploaded = await client.post(ADMIN, documentsRoute.POST, "/api/knowledge/documents", {
        title: "Zorvexa hepatotoxicity report",
        text: PHI_TEXT,
        format: "markdown",
        domains: ["regulatory"],
        data_classification: "phi",
      });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      const document = (uploaded.body as { document: { id: string; dataClassification: string } }).document;
      expect(document.dataClassification).toBe("phi");
      const expert = await principal(suite.tenants.demo);

      const asked = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "What happened to Quillon Marsh on Zorvexa dosing?",
      });
      expect(asked.status).toBe(200);
      const runId = asked.headers.get("x-vigil-run-id") as string;
      const read = sourcesOf(asked.chunks).map((s) => s.documentId);
      expect(read).toContain(document.id);
      const marked = await retrievalOf(runId);
      expect(marked).toMatchObject({
        phi_accessed: true,
        phi_fields: [`knowledge:${document.id}`],
        data_classification: "phi",
      });

      const publicAsk = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "What does a 510(k) premarket notification need to show?",
      });
      const publicRead = sourcesOf(publicAsk.chunks).map((s) => s.documentId);
      expect(publicRead.length).toBeGreaterThan(0);
      expect(publicRead).not.toContain(document.id);
      const unmarked = await retrievalOf(publicAsk.headers.get("x-vigil-run-id") as string);
      expect(unmarked).toMatchObject({ phi_accessed: false, phi_fields: null, data_classification: "public" });

      // The access is listed for the admin, with the document titled and who it was for.
      const res = await client.get(ADMIN, phiRoute.GET, `/api/audit/phi?user=${encodeURIComponent(expert.userId)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const items = (res.body as { items: PhiAccessItem[] }).items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        runId,
        eventType: "tool_result",
        nodeName: "rag_retrieval",
        documents: [{ id: document.id, title: "Zorvexa hepatotoxicity report" }],
        sessionClassification: "phi",
        agent: { name: expect.any(String) },
      });
    });

    it("lets an admin reclassify a document, not a member, and refuses a class it does not know", async () => {
      const uploaded = await client.post(ADMIN, documentsRoute.POST, "/api/knowledge/documents", {
        title: "Reclassified note",
        text: "# Reclassified note\n\nA note about the Pellucid batch release.",
        format: "markdown",
        domains: ["quality"],
      });
      const id = (uploaded.body as { document: { id: string; dataClassification: string } }).document.id;
      expect((uploaded.body as { document: { dataClassification: string } }).document.dataClassification).toBe(
        "public",
      );
      const patch = (email: string, body: unknown) =>
        client.raw(email, documentRoute.PATCH, {
          method: "PATCH",
          path: `/api/knowledge/documents/${id}`,
          rawBody: JSON.stringify(body),
          params: { id },
        });
      const classOf = async () =>
        rowsOf<{ c: string }>(
          await suite.database.db.execute(
            sql`select data_classification as c from knowledge_documents where id = ${id}`,
          ),
        )[0].c;
      expect((await patch(MEMBER, { data_classification: "phi" })).status).toBe(403);
      expect((await patch(ACME_ADMIN, { data_classification: "phi" })).status).toBe(404);
      const bad = await patch(ADMIN, { data_classification: "secret" });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect((await patch(ADMIN, { data_classification: "phi", title: "x" })).status).toBe(400);
      expect(await classOf()).toBe("public");
      const ok = await patch(ADMIN, { data_classification: "restricted" });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ document: { id, dataClassification: "restricted" } });
      expect(await classOf()).toBe("restricted");
      const badUpload = await client.post(ADMIN, documentsRoute.POST, "/api/knowledge/documents", {
        title: "Refused",
        text: "# Refused\n\nNever stored.",
        format: "markdown",
        domains: ["quality"],
        data_classification: "top-secret",
      });
      expect(badUpload.status).toBe(400);
      const refused = rowsOf<{ n: number }>(
        await suite.database.db.execute(
          sql`select count(*)::int as n from knowledge_documents where title = 'Refused'`,
        ),
      );
      expect(refused[0].n).toBe(0);
    });

    it("derives the event's columns from what it touched, keeping what the event already said", () => {
      const a = randomUUID();
      const b = randomUUID();
      expect(
        classify({
          eventType: "tool_result",
          touched: [
            { kind: "knowledge", id: a, classification: "confidential" },
            { kind: "knowledge", id: b, classification: "phi" },
            { kind: "knowledge", id: b, classification: "phi" },
          ],
        }),
      ).toEqual({ dataClassification: "phi", phiAccessed: true, phiFields: [`knowledge:${b}`] });
      expect(
        classify({
          eventType: "tool_result",
          phiFields: ["ssn"],
          phiAccessed: true,
          touched: [{ kind: "knowledge", id: a, classification: "restricted" }],
        }),
      ).toEqual({ dataClassification: "restricted", phiAccessed: true, phiFields: ["ssn"] });
      expect(classify({ eventType: "llm_call" })).toEqual({
        dataClassification: null,
        phiAccessed: false,
        phiFields: null,
      });
    });

    describe("GET /api/audit/phi", () => {
      const missingDoc = randomUUID();
      let memberId = "";
      let adminId = "";
      let expected: { key: string; event: TraceEvent; index: number }[] = [];
      let made: Promise<void> | undefined;
      const fixture = () => {
        made ??= makeFixture();
        return made;
      };

      async function makeFixture() {
        memberId = await userIdOf(suite.database, MEMBER);
        adminId = await userIdOf(suite.database, ADMIN);
        const at = (iso: string) => new Date(`2019-05-${iso}Z`);
        const events: TraceEvent[] = [
          {
            eventType: "tool_result",
            sessionId: "phi-s1",
            userId: memberId,
            agentId: "fda-regulatory",
            touched: [{ kind: "knowledge", id: missingDoc, classification: "phi" }],
            occurredAt: at("01T10:00:00"),
          },
          { eventType: "llm_call", sessionId: "phi-s1", userId: memberId, occurredAt: at("01T10:05:00") },
          {
            eventType: "tool_result",
            sessionId: "phi-s2",
            userId: adminId,
            agentId: "pharmacovigilance",
            phiAccessed: true,
            phiFields: ["patient_name"],
            dataClassification: "phi",
            occurredAt: at("02T11:00:00"),
          },
          // Explicitly flagged without a class: its session's class comes from its other event.
          {
            eventType: "tool_result",
            sessionId: "phi-s3",
            userId: memberId,
            phiAccessed: true,
            phiFields: ["ssn"],
            occurredAt: at("03T12:00:00"),
          },
          {
            eventType: "tool_result",
            sessionId: "phi-s3",
            userId: memberId,
            dataClassification: "restricted",
            occurredAt: at("03T12:00:00"),
          },
          // Two flagged events at the same instant: the cursor must not skip either.
          {
            eventType: "tool_result",
            sessionId: "phi-s4",
            userId: memberId,
            actorId: adminId,
            phiAccessed: true,
            phiFields: ["mrn"],
            dataClassification: "phi",
            occurredAt: at("04T09:00:00"),
          },
          {
            eventType: "cache_hit",
            sessionId: "phi-s4",
            userId: memberId,
            phiAccessed: true,
            phiFields: ["mrn"],
            dataClassification: "phi",
            occurredAt: at("04T09:00:00"),
          },
          { eventType: "tool_result", sessionId: "phi-s5", userId: adminId, dataClassification: "confidential" },
        ].map((e, i) => ({ ...e, occurredAt: e.occurredAt ?? at(`05T0${i}:00:00`) }) as TraceEvent);
        await recordTrace({ tenantId: suite.tenants.demo }, events);
        await recordTrace({ tenantId: suite.tenants.acme }, [
          {
            eventType: "tool_result",
            sessionId: "acme-s1",
            phiAccessed: true,
            phiFields: ["acme_patient"],
            dataClassification: "phi",
            occurredAt: at("02T08:00:00"),
          },
        ]);
        await drainTrace();
        // Newest first; at the same instant the later-recorded (higher seq) first.
        expected = events
          .map((event, index) => ({ event, index, key: `${event.sessionId}:${index}` }))
          .filter(({ event }) => classify(event).phiAccessed)
          .sort(
            (x, y) =>
              (y.event.occurredAt as Date).getTime() - (x.event.occurredAt as Date).getTime() || y.index - x.index,
          );
        sessionClass = new Map();
        for (const e of events) {
          const session = e.sessionId as string;
          sessionClass.set(session, highest([sessionClass.get(session), classify(e).dataClassification]));
        }
      }
      let sessionClass = new Map<string, DataClassification | null>();

      const list = async (email: string, query: string) => {
        const res = await client.get(email, phiRoute.GET, `/api/audit/phi?${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as { items: PhiAccessItem[]; next_cursor: string | null };
      };
      const shape = (items: PhiAccessItem[]) => items.map((i) => [i.sessionId, i.eventType, i.at]);
      const expectedShape = (pick = expected) =>
        pick.map(({ event }) => [event.sessionId, event.eventType, (event.occurredAt as Date).toISOString()]);

      it("lists exactly the flagged events, newest first, with their fields and their session's class", async () => {
        await fixture();
        const { items } = await list(ADMIN, MAY);
        expect(shape(items)).toEqual(expectedShape());
        for (const [i, item] of items.entries()) {
          const event = expected[i].event;
          expect(item.phiFields).toEqual(classify(event).phiFields);
          expect(item.sessionClassification).toBe(sessionClass.get(event.sessionId as string));
          expect(item.user?.id).toBe(event.userId);
        }
        const s1 = items.find((i) => i.sessionId === "phi-s1");
        expect(s1?.documents).toEqual([{ id: missingDoc, title: null }]);
        expect(s1?.agent).toEqual({ id: "fda-regulatory", name: null });
        expect(items.find((i) => i.sessionId === "phi-s3")?.sessionClassification).toBe("restricted");
      });

      it("filters by user, agent and time", async () => {
        await fixture();
        const byUser = (id: string) => expected.filter(({ event }) => event.userId === id || event.actorId === id);
        expect(shape((await list(ADMIN, `${MAY}&user=${adminId}`)).items)).toEqual(expectedShape(byUser(adminId)));
        expect(shape((await list(ADMIN, `${MAY}&user=${memberId}`)).items)).toEqual(expectedShape(byUser(memberId)));
        expect(shape((await list(ADMIN, `${MAY}&agent=pharmacovigilance`)).items)).toEqual(
          expectedShape(expected.filter(({ event }) => event.agentId === "pharmacovigilance")),
        );
        const from = Date.parse("2019-05-02T00:00:00Z");
        const to = Date.parse("2019-05-03T23:59:59.999Z");
        expect(shape((await list(ADMIN, "from=2019-05-02&to=2019-05-03")).items)).toEqual(
          expectedShape(
            expected.filter(({ event }) => {
              const t = (event.occurredAt as Date).getTime();
              return t >= from && t <= to;
            }),
          ),
        );
      });

      it("pages with a cursor through every flagged event exactly once", async () => {
        await fixture();
        const walked: PhiAccessItem[] = [];
        let cursor: string | null = null;
        do {
          const page: { items: PhiAccessItem[]; next_cursor: string | null } = await list(
            ADMIN,
            `${MAY}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
          );
          expect(page.items.length).toBeLessThanOrEqual(2);
          walked.push(...page.items);
          cursor = page.next_cursor;
        } while (cursor);
        expect(shape(walked)).toEqual(expectedShape());
        expect(new Set(walked.map((i) => i.id)).size).toBe(expected.length);
      });

      it("shows each tenant only its own, and refuses members, reviewers and bad input", async () => {
        await fixture();
        const acme = await list(ACME_ADMIN, MAY);
        expect(acme.items.map((i) => i.sessionId)).toEqual(["acme-s1"]);
        expect((await list(ADMIN, MAY)).items.some((i) => i.sessionId === "acme-s1")).toBe(false);
        for (const email of [MEMBER, REVIEWER]) {
          const res = await client.get(email, phiRoute.GET, "/api/audit/phi");
          expect(res.status).toBe(403);
          expect(res.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
        }
        for (const query of ["cursor=nope", "from=2019-06-01&to=2019-05-01", "limit=0", "from=yesterday", "x=1"]) {
          const res = await client.get(ADMIN, phiRoute.GET, `/api/audit/phi?${query}`);
          expect(res.status, query).toBe(400);
          expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        }
        // The chain holds exactly the flagged fixture events the list showed.
        const stored = await suite.database.db.select().from(schema.executionTrace);
        expect(stored.filter((r) => r.phiAccessed && r.sessionId?.startsWith("phi-")).length).toBe(expected.length);
      });
    });
  });
}
