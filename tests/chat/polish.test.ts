import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as sessionsRoute from "@/app/api/chat/sessions/route";
import { questionsFromOutlines, suggestedQuestions, suggestionsFor, titleFromMessage } from "@/lib/chat";
import { schema } from "@/lib/db";
import { SEED_TENANTS } from "@/lib/demo";
import type { SourceItem } from "@/lib/runs/contract";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { postChat, principal } from "./support";

describe("session titles from the first question", () => {
  it("keeps a short question whole, without its closing punctuation", () => {
    expect(titleFromMessage("  What is a   510(k)?  ")).toBe("What is a 510(k)");
    expect(titleFromMessage("Explain the 510(k)...")).toBe("Explain the 510(k)");
    expect(titleFromMessage("How do we handle (late) SAE reports?!")).toBe("How do we handle (late) SAE reports");
  });

  it("cuts a long question at a word, never inside one, and not on a dangling little word", () => {
    const title = titleFromMessage(
      "How should a sponsor plan the sample size of a non-inferiority trial with a binary endpoint?",
    );
    expect(title).toBe("How should a sponsor plan the sample size");
    const long = titleFromMessage(
      "Summarise the post-marketing requirements, annual reports, and medical device reporting obligations",
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toBe("Summarise the post-marketing requirements, annual reports");
    // One endless word is cut where it must be.
    expect(titleFromMessage("x".repeat(200))).toBe("x".repeat(60));
  });

  it("reads the first line of a paste, without markdown markers", () => {
    expect(titleFromMessage(`## Can you review this protocol synopsis?\n\n${"Lorem ipsum. ".repeat(50)}`)).toBe(
      "Can you review this protocol synopsis",
    );
    expect(titleFromMessage("\n\n- first point: endpoints\n- second")).toBe("first point: endpoints");
    expect(titleFromMessage("???")).toBe("New conversation");
  });
});

describe("suggested questions from an agent's knowledge", () => {
  // They were templates ("What does <title> say about <section>?"); they are now the questions a
  // person asks, made from the section headings.
  it("asks each document's first section as a question, then their next ones, up to the count", () => {
    const outlines = [
      { title: "FDA 510(k) premarket notification", sections: ["Substantial equivalence", "Types of 510(k)"] },
      { title: "De Novo classification request", sections: ["When to use De Novo", "Examples"] },
    ];
    expect(questionsFromOutlines(outlines, 4)).toEqual([
      "What is substantial equivalence?",
      "When to use De Novo?",
      "What are the types of 510(k)?",
      // "Examples" alone says nothing of what: the document's title does.
      "What are the examples of De Novo classification request?",
    ]);
    expect(questionsFromOutlines(outlines, 1)).toHaveLength(1);
  });

  it("asks headings worded as questions directly, and names what 'it' is", () => {
    expect(
      questionsFromOutlines(
        [
          {
            title: "EMA centralised procedure",
            sections: [
              "Which medicines must use it",
              "What a PMA must show",
              "What an IND contains",
              "Can a sponsor appeal?",
            ],
          },
        ],
        4,
      ),
    ).toEqual([
      "Which medicines must use the EMA centralised procedure?",
      "What must a PMA show?",
      "What does an IND contain?",
      "Can a sponsor appeal?",
    ]);
  });

  it("keeps acronyms, asks about a document without sections by its title, and leaves out what would not fit", () => {
    expect(
      questionsFromOutlines([
        { title: "Signal detection.", sections: ["MedDRA coding", "Signal detection"] },
        { title: "Budget impact analysis", sections: [] },
        { title: `A ${"very ".repeat(30)}long title`, sections: ["Intro"] },
        { title: "   ", sections: ["Orphan"] },
      ]),
    ).toEqual(["What is MedDRA coding?", "What is budget impact analysis?"]);
    expect(questionsFromOutlines([])).toEqual([]);
  });

  it("puts the documents on the agent's own subject first", () => {
    const outlines = [
      { title: "EMA centralised procedure", sections: ["Which medicines must use it"] },
      { title: "FDA 510(k) premarket notification", sections: ["Substantial equivalence"] },
    ];
    expect(questionsFromOutlines(outlines, 1, "FDA Regulatory Specialist: 510(k), De Novo")).toEqual([
      "What is substantial equivalence?",
    ]);
    expect(questionsFromOutlines(outlines, 1)).toEqual(["Which medicines must use the EMA centralised procedure?"]);
  });
});

for (const target of appTargets()) {
  describe(`chat polish on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("suggests questions from the documents of the agent's own domains only", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const suggestions = await suggestionsFor(scope, ["regulatory"]);
      const regulatory = suggestions.map((s) => s.question);
      expect(regulatory).toHaveLength(4);
      const titles = (
        await suite.database.db
          .select({ title: schema.knowledgeDocuments.title, domains: schema.knowledgeDocuments.domains })
          .from(schema.knowledgeDocuments)
          .where(eq(schema.knowledgeDocuments.tenantId, suite.tenants.demo))
      )
        .filter((d) => d.domains.includes("regulatory"))
        .map((d) => d.title);
      for (const { question, document } of suggestions) {
        expect(titles, question).toContain(document);
        expect(question.endsWith("?")).toBe(true);
        expect(question).not.toMatch(/^What does .* say about/);
      }
      // Four different documents, the same four every time.
      expect(new Set(suggestions.map((s) => s.document)).size).toBe(4);
      expect(await suggestedQuestions(scope, ["regulatory"])).toEqual(regulatory);
      const safety = await suggestedQuestions(scope, ["safety"]);
      expect(safety.some((q) => regulatory.includes(q))).toBe(false);
      // No knowledge, no suggestions; another tenant's documents are never used.
      expect(await suggestedQuestions(scope, ["no-such-domain"])).toEqual([]);
      expect(await suggestedQuestions({ tenantId: suite.tenants.acme }, ["regulatory"])).toEqual([]);
    });

    it("suggests, for every demo expert, questions its offline engine answers from the document they came from", async () => {
      const unanswered: string[] = [];
      for (const tenant of SEED_TENANTS) {
        const tenantId = suite.tenants[tenant.slug as keyof typeof suite.tenants];
        const { auth } = await principal(tenantId);
        for (const agent of tenant.agents.filter((a) => !a.workflow)) {
          const subject = `${agent.name} ${agent.domain} ${agent.description}`;
          const suggestions = await suggestionsFor({ tenantId }, agent.knowledgeDomains, subject);
          expect(suggestions.length, agent.slug).toBeGreaterThan(0);
          for (const { question, document } of suggestions) {
            const turn = await postChat(auth, { agentId: agent.slug, message: question });
            expect(turn.status, question).toBe(200);
            const sources = turn.chunks.find((c) => c.type === "data-sources") as
              | { data: { items: SourceItem[] } }
              | undefined;
            const meta = turn.chunks.find((c) => c.type === "message-metadata") as
              | { messageMetadata: { citations?: number[] } }
              | undefined;
            const cited = (meta?.messageMetadata.citations ?? []).map(
              (n) => sources?.data.items.find((s) => s.n === n)?.title,
            );
            // Answered (a citation, not "I found nothing"), from the document the question was made from.
            if (!cited.includes(document))
              unanswered.push(`${agent.slug}: ${question} → ${cited.join(", ") || "refused"}`);
          }
        }
      }
      expect(unanswered).toEqual([]);
    }, 600_000);

    it("searches the caller's session titles with q, paged, and refuses a bad q", async () => {
      const me = await principal(suite.tenants.demo);
      const colleague = await principal(suite.tenants.demo);
      const [agent] = await suite.database.db
        .select({ id: schema.agents.id })
        .from(schema.agents)
        .where(and(eq(schema.agents.tenantId, suite.tenants.demo), eq(schema.agents.slug, "fda-regulatory")));
      const titles = [
        "De Novo request for a glucose monitor",
        "510(k) predicate choice",
        "Breakthrough designation timing",
        "de novo versus 510(k)",
        "100% literal_match",
        "100 percent literal match",
      ];
      const base = Date.UTC(2025, 0, 1);
      const rows = await suite.database.db
        .insert(schema.chatSessions)
        .values(
          titles.map((title, i) => ({
            tenantId: suite.tenants.demo,
            userId: me.userId,
            agentId: agent.id,
            title,
            createdAt: new Date(base + i * 60_000),
            updatedAt: new Date(base + i * 60_000),
          })),
        )
        .returning({ id: schema.chatSessions.id, title: schema.chatSessions.title });
      await suite.database.db.insert(schema.chatSessions).values({
        tenantId: suite.tenants.demo,
        userId: colleague.userId,
        agentId: agent.id,
        title: "De Novo notes of a colleague",
      });
      const idOf = (title: string) => rows.find((r) => r.title === title)?.id;
      const list = async (query: string) => {
        const res = await call(sessionsRoute.GET, { path: `/api/chat/sessions?${query}`, headers: me.auth });
        return res as typeof res & { body: { items: { id: string; title: string }[]; next_cursor: string | null } };
      };

      // Case-insensitive, every word, newest first, only the caller's own.
      const novo = await list(`q=${encodeURIComponent("  DE novo ")}`);
      expect(novo.status).toBe(200);
      expect(novo.body.items.map((i) => i.title)).toEqual([
        "de novo versus 510(k)",
        "De Novo request for a glucose monitor",
      ]);
      const both = await list(`q=${encodeURIComponent("510(k) novo")}`);
      expect(both.body.items.map((i) => i.id)).toEqual([idOf("de novo versus 510(k)")]);
      // % and _ are letters here, not wildcards.
      expect((await list(`q=${encodeURIComponent("100%")}`)).body.items.map((i) => i.title)).toEqual([
        "100% literal_match",
      ]);
      expect((await list("q=l_teral")).body.items).toEqual([]);
      // Pages of a search follow each other.
      const first = await list(`q=${encodeURIComponent("o")}&limit=2`);
      expect(first.body.items).toHaveLength(2);
      const second = await list(`q=o&limit=10&cursor=${first.body.next_cursor}`);
      expect([...first.body.items, ...second.body.items].map((i) => i.id)).toEqual(
        [...rows]
          .reverse()
          .filter((r) => r.title.toLowerCase().includes("o"))
          .map((r) => r.id),
      );
      // A preview is plain words, even of a markdown table.
      await suite.database.db.insert(schema.chatMessages).values({
        tenantId: suite.tenants.demo,
        sessionId: idOf("510(k) predicate choice") as string,
        role: "assistant",
        content: "## Choice\n\n| Predicate | Fit |\n| --- | :---: |\n| K123456 | Same use [1] |\n\n- Compare materials",
      });
      const withPreview = await list("q=predicate");
      expect(withPreview.body.items[0]).toMatchObject({
        lastMessagePreview: "Choice Predicate Fit K123456 Same use [1] Compare materials",
      });

      // An empty q is no filter; nothing found is an empty page.
      expect((await list("q=")).body.items).toHaveLength(titles.length);
      expect((await list("q=zzzz")).body).toMatchObject({ status: "success", count: 0, items: [], next_cursor: null });

      for (const bad of [`q=${"a".repeat(101)}`, "q=%00", `q=${encodeURIComponent("a\nb")}`]) {
        const res = await list(bad);
        expect(res.status, bad).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: expect.any(String), message: expect.any(String) });
      }
    });
  });
}
