import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as reportRoute from "@/app/api/runs/[id]/report/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import * as runsRoute from "@/app/api/runs/route";
import type { ResearchPublicState } from "@/lib/agents/contract";
import { executionSettled } from "@/lib/runs";
import { ACME_MEMBER, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// A finished research run, through the routes: its owner's tenant streams and exports it (the
// Markdown and the PDF's text hold the report's cited facts); another tenant can do neither.

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function textOfPdf(pdf: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(pdf, { verbosity: 0 });
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  return pages.join(" ").replace(/\s+/g, " ");
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

for (const target of appTargets()) {
  describe(`a research run's stream and export across tenants on ${target.name}`, () => {
    seededDatabase(target);
    const api = hitlClient();
    const raw = async (email: string, handler: unknown, path: string, id: string) =>
      (handler as Handler)(new Request(`http://localhost${path}`, { headers: { cookie: await api.cookieOf(email) } }), {
        params: Promise.resolve({ id }),
      });

    it("streams and exports only for its own tenant; the exports carry the report's cited facts", async () => {
      const started = await api.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "deep-research",
        input: {
          agentId: "research-analyst",
          query: "How long does the FDA review of a 510(k) take?",
          skipClarification: true,
        },
      });
      expect(started.status).toBe(202);
      const id = started.body.runId as string;
      const stopped = async () => {
        for (let i = 0; i < 400; i++) {
          await executionSettled(id);
          const run = (await api.get(MEMBER, runRoute.GET, `/api/runs/${id}`, { id })).body.run as {
            status: string;
            state: ResearchPublicState;
            waitingOn: { caseId: string } | null;
          };
          if (run.status !== "running") return run;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error("run did not stop");
      };
      const waiting = await stopped();
      const caseId = waiting.waitingOn?.caseId as string;
      const decided = await api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${caseId}/decision`,
        { request_id: rid("decide"), decision: "approved" },
        { id: caseId },
      );
      expect(decided.status).toBe(200);
      const run = await stopped();
      expect(run.status).toBe("completed");
      const report = run.state.final_report;
      if (!report) throw new Error("no report");
      const verified = report.claims.filter((c) => c.verified);
      expect(verified.length).toBeGreaterThan(0);
      expect(report.answer).toMatch(/90 FDA days/);

      // Another tenant: the stream and both downloads are a 404 in the documented shape.
      const foreignStream = await api.get(ACME_MEMBER, streamRoute.GET, `/api/runs/${id}/stream`, { id });
      expect(foreignStream.status).toBe(404);
      expect(foreignStream.body).toMatchObject({ status: "not_found" });
      for (const format of ["markdown", "pdf"]) {
        const foreign = await api.get(ACME_MEMBER, reportRoute.GET, `/api/runs/${id}/report?format=${format}`, { id });
        expect(foreign.status, format).toBe(404);
        expect(foreign.body).toMatchObject({ status: "not_found" });
      }

      // Its own tenant re-attaches: the finished run's stream replays to its finish and ends.
      const own = await raw(MEMBER, streamRoute.GET, `/api/runs/${id}/stream`, id);
      expect(own.status).toBe(200);
      const events = await own.text();
      expect(events).toContain('"type":"finish"');
      // The report's sources are announced on it, each by its passage.
      for (const s of report.sources) expect(events).toContain(`"sourceId":"${s.chunk_id}"`);

      // The Markdown: the answer's cited facts, each verified claim, each source's document.
      const md = await raw(MEMBER, reportRoute.GET, `/api/runs/${id}/report?format=markdown`, id);
      expect(md.status).toBe(200);
      expect(md.headers.get("content-type")).toContain("text/markdown");
      const markdown = await md.text();
      expect(markdown).toContain("90 FDA days");
      for (const c of verified) expect(markdown).toContain(c.text);
      for (const s of report.sources) expect(markdown).toContain(s.document);

      // The PDF, read back as a viewer extracts its text.
      const pdf = await raw(MEMBER, reportRoute.GET, `/api/runs/${id}/report?format=pdf`, id);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
      const text = await textOfPdf(bytes);
      expect(text).toContain("90 FDA days");
      for (const c of verified) expect(text).toContain(oneLine(c.text));
    });
  });
}
