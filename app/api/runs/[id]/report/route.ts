import { z } from "zod";
import { reportMarkdown, reportPdf } from "@/lib/agents";
import type { research } from "@/lib/agents/contract";
import { requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { parseQuery } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

const ReportQuery = z.object({ format: z.enum(["markdown", "pdf"]) });

const FILES = {
  markdown: { type: "text/markdown; charset=utf-8", extension: "md" },
  pdf: { type: "application/pdf", extension: "pdf" },
} as const;

/**
 * A deep-research run's report as a download, Markdown or PDF. The run is read as
 * GET /api/runs/{id} reads it, so a run this caller may not see is a 404 here too.
 */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const { format } = parseQuery(req, ReportQuery);
  const run = await getRun(session, runId);
  if (run.workflow !== "deep-research") {
    throw errors.conflict("NOT_A_RESEARCH_RUN", "Only a deep-research run has a report to export.", {
      workflow: run.workflow,
    });
  }
  const report = (run.state as Partial<research.ResearchPublicState>).final_report;
  if (!report) {
    throw errors.conflict("REPORT_NOT_READY", "This research run has no final report yet; export it once it is done.", {
      status: run.status,
    });
  }
  const file = FILES[format];
  const body = format === "pdf" ? new Uint8Array(await reportPdf(report)) : reportMarkdown(report);
  return new Response(body, {
    headers: {
      "content-type": file.type,
      "content-disposition": `attachment; filename="research-report-${run.id.slice(0, 8)}.${file.extension}"`,
      "cache-control": "no-store",
    },
  });
});
