import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/chat/sessions/[id]/route";
import * as sessionsRoute from "@/app/api/chat/sessions/route";
import type { SourceItem } from "@/lib/chat";
import { schema } from "@/lib/db";
import { getCase, recordDecision } from "@/lib/hitl";
import { searchKnowledge } from "@/lib/rag";
import { executionSettled } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { assemble, chatCounts, citedIn, postChat, principal, textOf } from "./support";

const NODES = [
  "load_session",
  "load_agent_profile",
  "load_history",
  "analyze_query",
  "rag_retrieval",
  "generate",
  "review_gate",
  "save_message",
  "update_session",
];

type Principal = Awaited<ReturnType<typeof principal>>;

for (const target of appTargets()) {
  describe(`chat on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let expert: Principal;
    let colleague: Principal;
    let acme: Principal;

    beforeAll(async () => {
      expert = await principal(suite.tenants.demo);
      colleague = await principal(suite.tenants.demo);
      acme = await principal(suite.tenants.acme);
    });

    afterEach(() => {
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
    });

    const getSession = (p: Principal, id: string) =>
      call(sessionRoute.GET, { path: `/api/chat/sessions/${id}`, headers: p.auth, params: { id } });

    it("streams steps, sources, cited text and final metadata, and saves the answer with its sources", async () => {
      const res = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "What does a 510(k) premarket notification need to show?",
      });
      expect(res.status).toBe(200);
      expect(res.done).toBe(true);
      const sessionId = res.headers.get("x-vigil-session-id") as string;
      const runId = res.headers.get("x-vigil-run-id") as string;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(runId).toMatch(/^[0-9a-f-]{36}$/);
      const { chunks } = res;

      expect(chunks[0]).toMatchObject({ type: "start", messageMetadata: { runId } });
      const steps = chunks.filter((c) => c.type === "data-step") as { data: { node: string; status: string } }[];
      for (const node of NODES) {
        expect(steps.some((s) => s.data.node === node && s.data.status === "running")).toBe(true);
        expect(steps.some((s) => s.data.node === node && s.data.status === "done")).toBe(true);
      }
      expect(steps.some((s) => s.data.node === "execute_tools")).toBe(false);

      const sourcesPart = chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } };
      const items = sourcesPart.data.items;
      expect(items.length).toBeGreaterThan(0);
      expect(items.map((s) => s.n)).toEqual(items.map((_, i) => i + 1));
      const documents = chunks.filter((c) => c.type === "source-document") as {
        sourceId: string;
        title: string;
        mediaType: string;
      }[];
      expect(documents.map((d) => d.sourceId)).toEqual(items.map((s) => s.chunkId));
      expect(documents.every((d) => d.mediaType === "text/markdown" && d.title)).toBe(true);

      // Order: sources come before the first text, the metadata after the last.
      const firstText = chunks.findIndex((c) => c.type === "text-delta");
      const metaAt = chunks.findIndex((c) => c.type === "message-metadata");
      expect(chunks.indexOf(sourcesPart as never)).toBeLessThan(firstText);
      expect(metaAt).toBeGreaterThan(firstText);
      expect(chunks.at(-1)).toMatchObject({ type: "finish" });

      const text = textOf(chunks);
      expect(text).not.toMatch(/<\/?thinking>/);
      const meta = (chunks[metaAt] as { messageMetadata: Record<string, unknown> }).messageMetadata;
      expect(meta).toMatchObject({ runId, sessionId, engine: "offline", model: "extractive" });
      expect(meta.citations).toEqual(citedIn(text));
      expect((meta.citations as number[]).length).toBeGreaterThan(0);
      expect(meta.confidence).toBeGreaterThan(0);

      const message = await assemble(chunks);
      expect(message.parts.some((p) => p.type === "text")).toBe(true);
      expect(message.parts.some((p) => p.type === "source-document")).toBe(true);

      const detail = await getSession(expert, sessionId);
      expect(detail.status).toBe(200);
      const body = detail.body as {
        session: { title: string; agent: { slug: string; description: string } };
        messages: {
          role: string;
          content: string;
          sources: SourceItem[];
          citations: number[];
          metadata: Record<string, unknown>;
        }[];
        activeRun: unknown;
      };
      expect(body.session.title).toBe("What does a 510(k) premarket notification need to show");
      expect(body.session.agent.slug).toBe("fda-regulatory");
      expect(body.session.agent.description).toBeTruthy();
      expect(body.activeRun).toBeNull();
      expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      const answer = body.messages[1];
      expect(answer.content).toBe(text.trim());
      expect(answer.metadata).toMatchObject({ runId, engine: "offline", model: "extractive" });
      expect(answer.sources).toEqual(items);
      // No dangling numbers: every [n] names a source retrieved for this answer, with its passage.
      const cited = citedIn(answer.content);
      expect(cited).toEqual(answer.citations);
      for (const n of cited) {
        const source = answer.sources.find((s) => s.n === n);
        expect(source, `[${n}] has a source`).toBeDefined();
        expect(source?.text.length).toBeGreaterThan(0);
      }
      // Every quoted sentence is in the passage it cites.
      for (const match of answer.content.matchAll(/([^\n[\]]+?) \[(\d+)\]/g)) {
        const passage = answer.sources.find((s) => s.n === Number(match[2]))?.text ?? "";
        expect(passage.replace(/\s+/g, " ")).toContain(match[1].trim().replace(/\s+/g, " "));
      }
    });

    it("answers honestly, without citations, when nothing is known about the topic", async () => {
      const res = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "Tell me about zorblaxian quintessence flumoxide",
      });
      expect(res.status).toBe(200);
      const text = textOf(res.chunks);
      expect(text).toContain("I found nothing in the knowledge base about");
      expect(citedIn(text)).toEqual([]);
      const sources = res.chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } };
      expect(sources.data.items).toEqual([]);
      expect(res.chunks.some((c) => c.type === "source-document" || c.type === "source-url")).toBe(false);
      const meta = res.chunks.find((c) => c.type === "message-metadata") as {
        messageMetadata: Record<string, unknown>;
      };
      expect(meta.messageMetadata).toMatchObject({ citations: [], confidence: 0 });
      expect(meta.messageMetadata.review).toBeUndefined();
    });

    it("keeps the conversation in one session and remembers it across turns", async () => {
      const first = await postChat(expert.auth, { agentId: "health-economist", message: "How is a QALY calculated?" });
      const sessionId = first.headers.get("x-vigil-session-id") as string;
      const second = await postChat(expert.auth, {
        sessionId,
        agentId: "health-economist",
        message: "and what threshold do payers use?",
      });
      expect(second.status).toBe(200);
      expect(second.headers.get("x-vigil-session-id")).toBe(sessionId);
      const detail = await getSession(expert, sessionId);
      const messages = (detail.body as { messages: { role: string; content: string }[] }).messages;
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
      expect((detail.body as { session: { title: string } }).session.title).toBe("How is a QALY calculated");
      // The follow-up was searched with the earlier question's subject (memory from checkpoints).
      const runId = second.headers.get("x-vigil-run-id") as string;
      const { getRun } = await import("@/lib/runs");
      const run = await getRun({ tenantId: suite.tenants.demo, userId: expert.userId, role: "member" }, runId);
      expect(run.state.sessionId).toBe(sessionId);
      expect(run.state.remembered).toBe(4);
      const items = (second.chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } }).data
        .items;
      expect(items.length).toBeGreaterThan(0);
    });

    it("answers one of two turns sent to a session at the same moment and refuses the other, keeping nothing of it", async () => {
      const first = await postChat(expert.auth, { agentId: "health-economist", message: "What is a QALY?" });
      const sessionId = first.headers.get("x-vigil-session-id") as string;
      const before = await chatCounts(suite.database);
      const turns = await Promise.all(
        ["What is an ICER?", "What is a DALY?"].map((message) =>
          postChat(expert.auth, { sessionId, agentId: "health-economist", message }),
        ),
      );
      expect(turns.map((t) => t.status).sort()).toEqual([200, 409]);
      const refused = turns.find((t) => t.status === 409);
      expect(refused?.body).toMatchObject({ status: "error", code: "CHAT_BUSY" });
      expect(turns.find((t) => t.status === 200)?.done).toBe(true);
      expect(await chatCounts(suite.database)).toEqual({
        sessions: before.sessions,
        messages: before.messages + 2,
        runs: before.runs + 1,
      });
      const detail = await getSession(expert, sessionId);
      const messages = (detail.body as { messages: { role: string }[] }).messages;
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    });

    it("a retry answers the last question again without storing it twice", async () => {
      const question = "What is an ICER?";
      const first = await postChat(expert.auth, { agentId: "health-economist", message: question });
      const sessionId = first.headers.get("x-vigil-session-id") as string;
      const retried = await postChat(expert.auth, {
        sessionId,
        agentId: "health-economist",
        message: question,
        retry: true,
      });
      expect(retried.status).toBe(200);
      expect(retried.done).toBe(true);
      const detail = await getSession(expert, sessionId);
      const messages = (detail.body as { messages: { role: string; content: string }[] }).messages;
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
      // A retry naming another question is a new question.
      await postChat(expert.auth, { sessionId, agentId: "health-economist", message: "What is a QALY?", retry: true });
      const after = (await getSession(expert, sessionId)).body as { messages: { role: string }[] };
      expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant", "user", "assistant"]);
    });

    it("never retrieves demo chunks for an acme user, through the API and directly", async () => {
      const demoDocs = await suite.database.db
        .select({ id: schema.knowledgeDocuments.id })
        .from(schema.knowledgeDocuments)
        .where(eq(schema.knowledgeDocuments.tenantId, suite.tenants.demo));
      const demoIds = new Set(demoDocs.map((d) => d.id));
      expect(demoIds.size).toBeGreaterThan(0);
      const acmeDocs = await suite.database.db
        .select({ id: schema.knowledgeDocuments.id })
        .from(schema.knowledgeDocuments)
        .where(eq(schema.knowledgeDocuments.tenantId, suite.tenants.acme));
      const acmeIds = new Set(acmeDocs.map((d) => d.id));

      for (const message of [
        "What does a 510(k) premarket notification need to show?",
        "How are individual case safety reports submitted?",
        "What is a corrective and preventive action?",
      ]) {
        const res = await postChat(acme.auth, { agentId: "device-quality", message });
        expect(res.status).toBe(200);
        const items = (res.chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } }).data
          .items;
        for (const item of items) {
          expect(demoIds.has(item.documentId)).toBe(false);
          expect(acmeIds.has(item.documentId)).toBe(true);
        }
        const sessionId = res.headers.get("x-vigil-session-id") as string;
        const saved = (await getSession(acme, sessionId)).body as { messages: { sources: SourceItem[] }[] };
        for (const s of saved.messages.flatMap((m) => m.sources)) expect(demoIds.has(s.documentId)).toBe(false);
      }
      const direct = await searchKnowledge(
        { tenantId: suite.tenants.acme },
        { query: "510(k) premarket notification", k: 50 },
      );
      for (const hit of direct.items) expect(demoIds.has(hit.documentId)).toBe(false);
      // The demo agent does not exist for acme.
      const foreign = await postChat(acme.auth, { agentId: "fda-regulatory", message: "510(k)?" });
      expect(foreign.status).toBe(404);
    });

    it("refuses bad input and writes nothing", async () => {
      const own = await postChat(expert.auth, { agentId: "pharmacovigilance", message: "What is a SUSAR?" });
      const ownSession = own.headers.get("x-vigil-session-id") as string;
      const acmeRes = await postChat(acme.auth, { agentId: "device-quality", message: "What is a CAPA?" });
      const acmeSession = acmeRes.headers.get("x-vigil-session-id") as string;
      const before = await chatCounts(suite.database);

      const cases: [string, Record<string, string> | undefined, unknown, number, string?][] = [
        ["unknown agent", expert.auth, { agentId: "no-such-agent", message: "hello" }, 404],
        ["unknown agent id", expert.auth, { agentId: "00000000-0000-4000-8000-000000000000", message: "hello" }, 404],
        [
          "another user's session",
          colleague.auth,
          { sessionId: ownSession, agentId: "pharmacovigilance", message: "hi" },
          404,
        ],
        [
          "another tenant's session",
          expert.auth,
          { sessionId: acmeSession, agentId: "pharmacovigilance", message: "hi" },
          404,
        ],
        [
          "missing session",
          expert.auth,
          { sessionId: "00000000-0000-4000-8000-000000000001", agentId: "pharmacovigilance", message: "hi" },
          404,
        ],
        ["empty message", expert.auth, { agentId: "pharmacovigilance", message: "" }, 400, "VALIDATION_FAILED"],
        ["blank message", expert.auth, { agentId: "pharmacovigilance", message: "  \n " }, 400, "VALIDATION_FAILED"],
        [
          "8193 bytes",
          expert.auth,
          { agentId: "pharmacovigilance", message: "a".repeat(8193) },
          400,
          "VALIDATION_FAILED",
        ],
        [
          "4097 two-byte characters",
          expert.auth,
          { agentId: "pharmacovigilance", message: "é".repeat(4097) },
          400,
          "VALIDATION_FAILED",
        ],
        ["no agent", expert.auth, { message: "hello" }, 400, "VALIDATION_FAILED"],
        [
          "bad session id",
          expert.auth,
          { sessionId: "nope", agentId: "pharmacovigilance", message: "hi" },
          400,
          "VALIDATION_FAILED",
        ],
        ["unauthenticated", undefined, { agentId: "pharmacovigilance", message: "hello" }, 401, "UNAUTHENTICATED"],
      ];
      for (const [name, auth, body, status, code] of cases) {
        const res = await postChat(auth, body);
        expect(res.status, name).toBe(status);
        if (status === 404) expect(res.body.status, name).toBe("not_found");
        if (code) expect(res.body.code, name).toBe(code);
      }
      const invalidJson = await postChat(expert.auth, undefined, "{not json");
      expect(invalidJson.status).toBe(400);
      expect(await chatCounts(suite.database)).toEqual(before);

      // 8192 bytes exactly is accepted.
      const atLimit = await postChat(expert.auth, { agentId: "pharmacovigilance", message: `${"é".repeat(4095)}ab` });
      expect(atLimit.status).toBe(200);
    });

    it("lists, reads, renames and deletes the caller's own sessions only", async () => {
      const mine = await principal(suite.tenants.demo);
      const started: string[] = [];
      for (const message of ["What is MedDRA?", "What is signal detection?", "What is a PBRER?"]) {
        const res = await postChat(mine.auth, { agentId: "pharmacovigilance", message });
        started.push(res.headers.get("x-vigil-session-id") as string);
      }
      const list = await call(sessionsRoute.GET, { path: "/api/chat/sessions?limit=2", headers: mine.auth });
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ status: "success", count: 2 });
      const items = list.body.items as {
        id: string;
        title: string;
        agent: Record<string, string>;
        updatedAt: string;
        lastMessagePreview: string;
      }[];
      expect(items.map((i) => i.id)).toEqual([started[2], started[1]]);
      expect(items[0].agent).toMatchObject({ slug: "pharmacovigilance" });
      expect(Object.keys(items[0].agent).sort()).toEqual(["avatar", "domain", "id", "name", "slug"]);
      expect(items[0].lastMessagePreview).toBeTruthy();
      const next = await call(sessionsRoute.GET, {
        path: `/api/chat/sessions?limit=2&cursor=${list.body.next_cursor}`,
        headers: mine.auth,
      });
      expect((next.body.items as { id: string }[]).map((i) => i.id)).toEqual([started[0]]);
      expect(next.body.next_cursor).toBeNull();
      const bad = await call(sessionsRoute.GET, { path: "/api/chat/sessions?cursor=zzz", headers: mine.auth });
      expect(bad.status).toBe(400);
      const others = await call(sessionsRoute.GET, { path: "/api/chat/sessions", headers: colleague.auth });
      expect((others.body.items as { id: string }[]).some((i) => started.includes(i.id))).toBe(false);
      const unauth = await call(sessionsRoute.GET, { path: "/api/chat/sessions" });
      expect(unauth.status).toBe(401);

      const id = started[0];
      const patch = (p: Principal, title: unknown) =>
        call(sessionRoute.PATCH, {
          method: "PATCH",
          path: `/api/chat/sessions/${id}`,
          headers: p.auth,
          params: { id },
          body: { title },
        });
      expect((await patch(mine, "Renamed consultation")).status).toBe(200);
      expect(((await getSession(mine, id)).body.session as { title: string }).title).toBe("Renamed consultation");
      expect((await patch(mine, "")).status).toBe(400);
      expect((await patch(mine, "x".repeat(121))).status).toBe(400);
      expect((await patch(colleague, "Mine now")).status).toBe(404);
      expect((await getSession(colleague, id)).status).toBe(404);
      expect((await getSession(acme, id)).status).toBe(404);
      expect((await getSession(mine, "not-a-uuid")).status).toBe(404);

      const del = (p: Principal, sid: string) =>
        call(sessionRoute.DELETE, {
          method: "DELETE",
          path: `/api/chat/sessions/${sid}`,
          headers: p.auth,
          params: { id: sid },
        });
      expect((await del(colleague, id)).status).toBe(404);

      // While a run is active the session cannot be deleted, and a reload can re-attach to it.
      const busy = started[1];
      const [fake] = await suite.database.db
        .insert(schema.runs)
        .values({
          tenantId: suite.tenants.demo,
          workflow: "ask-expert",
          threadId: `chat:${busy}`,
          createdBy: mine.userId,
          status: "running",
        })
        .returning({ id: schema.runs.id });
      const detail = await getSession(mine, busy);
      expect(detail.body.activeRun).toEqual({ runId: fake.id, status: "running" });
      expect((await del(mine, busy)).status).toBe(409);
      const again = await postChat(mine.auth, { sessionId: busy, agentId: "pharmacovigilance", message: "more?" });
      expect(again.status).toBe(409);
      await suite.database.db.update(schema.runs).set({ status: "completed" }).where(eq(schema.runs.id, fake.id));

      expect((await del(mine, id)).status).toBe(200);
      expect((await getSession(mine, id)).status).toBe(404);
      const left = await suite.database.db
        .select({ id: schema.chatMessages.id })
        .from(schema.chatMessages)
        .where(eq(schema.chatMessages.sessionId, id));
      expect(left).toEqual([]);
    });

    it("sends a low-confidence answer to review as a final_review case without holding it back", async () => {
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const res = await postChat(expert.auth, {
        agentId: "clinical-trial-designer",
        message: "How does randomisation work in clinical trials?",
      });
      const runId = res.headers.get("x-vigil-run-id") as string;
      const sessionId = res.headers.get("x-vigil-session-id") as string;
      expect(textOf(res.chunks).length).toBeGreaterThan(0);
      const meta = (
        res.chunks.find((c) => c.type === "message-metadata") as { messageMetadata: Record<string, unknown> }
      ).messageMetadata;
      const review = meta.review as { caseId: string; status: string };
      expect(review).toMatchObject({ status: "pending" });
      const kase = await getCase({ tenantId: suite.tenants.demo }, review.caseId);
      expect(kase.adapter).toBe("final_review");
      // Nothing waits on it (the answer is shown): never above normal, whatever its confidence.
      expect(kase.priority).toBe("normal");
      // Checkpoint 5 of the contract: a review run (not the asker's) waits on the case.
      const reviewRun = kase.refs.find((r) => r.ref_type === "run")?.ref_value as string;
      expect(reviewRun).not.toBe(runId);
      expect(kase.refs).toEqual(
        expect.arrayContaining([
          { ref_type: "thread", ref_key: "id", ref_value: `answer-review:${runId}` },
          { ref_type: "chat_session", ref_key: "id", ref_value: sessionId },
        ]),
      );
      const request = kase.payload as { response_text: string; response_confidence: number; allow_edits: boolean };
      expect(request.response_text).toBe(textOf(res.chunks).trim());
      expect(request.response_confidence).toBe(meta.confidence);
      const saved = (await getSession(expert, sessionId)).body as {
        messages: { content: string; metadata: Record<string, unknown> }[];
      };
      expect(saved.messages[1].metadata.review).toEqual({ caseId: review.caseId, status: "pending" });

      // The conversation goes on while the review waits.
      const next = await postChat(expert.auth, { sessionId, agentId: "clinical-trial-designer", message: "Thanks!" });
      expect(next.status).toBe(200);

      // The reviewer edits the answer: the asker reads the reviewed text, marked as modified.
      const reviewer = { tenantId: suite.tenants.demo, userId: "reviewer-1", role: "reviewer" as const, name: "Rita" };
      await recordDecision(reviewer, review.caseId, {
        outcome: "approved",
        modifications: { response_text: "Reviewed: randomisation assigns participants by chance." },
        requestId: `review-${review.caseId}`,
      });
      await executionSettled(reviewRun);
      const after = (await getSession(expert, sessionId)).body as typeof saved;
      expect(after.messages[1].metadata.review).toEqual({
        caseId: review.caseId,
        status: "modified",
        originalContent: saved.messages[1].content,
      });
      expect(after.messages[1].content).toBe("Reviewed: randomisation assigns participants by chance.");

      // With the default threshold a well-supported answer of a medium-safety agent is not reviewed.
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
      const calm = await postChat(expert.auth, {
        agentId: "clinical-trial-designer",
        message: "How does randomisation work in clinical trials?",
      });
      const calmMeta = (
        calm.chunks.find((c) => c.type === "message-metadata") as { messageMetadata: Record<string, unknown> }
      ).messageMetadata;
      if ((calmMeta.confidence as number) >= 0.35) expect(calmMeta.review).toBeUndefined();
    });

    it("runs the knowledge_search tool for an agent that has it", async () => {
      // The demo's agent with the tool (the research analyst) waits for its own workflow: one
      // of the catalog's experts gets it here, for this test only.
      await suite.database.db.insert(schema.agents).values({
        tenantId: suite.tenants.demo,
        slug: "evidence-scout",
        name: "Evidence Scout",
        domain: "Regulatory affairs",
        description: "Searches the knowledge base before it answers.",
        avatar: "search",
        systemPrompt: "Answer from the retrieved sources and cite them.",
        tools: ["knowledge_search"],
        knowledgeDomains: ["regulatory", "clinical"],
      });
      const res = await postChat(expert.auth, {
        agentId: "evidence-scout",
        message: "What evidence supports accelerated approval?",
      });
      expect(res.status).toBe(200);
      const steps = res.chunks.filter((c) => c.type === "data-step") as { data: { node: string; status: string } }[];
      expect(steps.some((s) => s.data.node === "execute_tools" && s.data.status === "done")).toBe(true);
      const tools = res.chunks.filter((c) => c.type === "data-tool") as { data: { tool: string; status: string } }[];
      expect(tools.map((t) => t.data.status)).toEqual(["start", "end"]);
      const last = res.chunks.filter((c) => c.type === "data-sources").at(-1) as { data: { items: SourceItem[] } };
      const docs = res.chunks.filter((c) => c.type === "source-document") as { sourceId: string }[];
      expect(docs.map((d) => d.sourceId)).toEqual(last.data.items.map((s) => s.chunkId));
      const meta = (
        res.chunks.find((c) => c.type === "message-metadata") as { messageMetadata: { citations: number[] } }
      ).messageMetadata;
      for (const n of meta.citations) expect(last.data.items.some((s) => s.n === n)).toBe(true);
    });

    it("refuses an ask-expert run started on a thread that is not the caller's chat", async () => {
      const owner = await postChat(expert.auth, { agentId: "fda-regulatory", message: "What is an IND?" });
      const sessionId = owner.headers.get("x-vigil-session-id") as string;
      const { startRun } = await import("@/lib/runs");
      const actor = { tenantId: suite.tenants.demo, userId: colleague.userId, role: "member" as const };
      const threadId = `chat:${sessionId}`;
      const start = () => startRun(actor, { workflow: "ask-expert", input: { message: "Leak it" }, threadId });
      // The thread is the owner's: refused before any run exists.
      await expect(start()).rejects.toMatchObject({ name: "NotFoundError" });
      expect(await suite.database.db.select().from(schema.runs).where(eq(schema.runs.threadId, threadId))).toHaveLength(
        1,
      );
      // With the session's run history gone, the graph itself still refuses the stranger.
      await suite.database.db.delete(schema.runs).where(eq(schema.runs.threadId, threadId));
      const { runId } = await start();
      await executionSettled(runId);
      const [run] = await suite.database.db.select().from(schema.runs).where(eq(schema.runs.id, runId));
      expect(run.status).toBe("failed");
      const messages = await suite.database.db
        .select({ id: schema.chatMessages.id })
        .from(schema.chatMessages)
        .where(eq(schema.chatMessages.sessionId, sessionId));
      expect(messages).toHaveLength(2);
    });
  });
}
