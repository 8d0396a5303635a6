// The SQL analyst end to end, offline engine: a question through POST /api/chat (routing, the
// join graph, SQL generation, the guard and validation, execution on the demo warehouse in
// PGlite, finalize, saving the answer), timed from the request to the stream's end.

import { performance } from "node:perf_hooks";
import * as chatRoute from "@/app/api/chat/route";
import { createApiKey } from "@/lib/tenancy";
import { withDemoApp } from "./demo-app";
import type { Measure } from "./sql-report";

export const ANSWER_QUESTIONS = [
  "How many orders did each shipper deliver in 1997?",
  "Top 5 customers by total invoice amount",
  "List customers whose country is Germany",
  "Average film length by rating",
  "Number of tracks per genre",
  "How many rentals are there?",
];

/** Reads a chat turn's event stream to its end; says whether a `data-sql` part came. */
async function turn(auth: string, message: string): Promise<boolean> {
  const res = await chatRoute.POST(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ agentId: "data-analyst", message }),
    }),
    undefined as never,
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`the chat answered ${res.status}: ${text.slice(0, 200)}`);
  return text.includes('"type":"data-sql"');
}

export async function measureAnswers(samples: number, goalMs?: number): Promise<Measure> {
  return withDemoApp(async ({ demoTenantId: tenantId }) => {
    const key = await createApiKey({ tenantId }, { name: "bench", role: "member", createdBy: "bench" });
    const auth = `Bearer ${key.key}`;
    for (const q of ANSWER_QUESTIONS) {
      if (!(await turn(auth, q))) throw new Error(`no result for "${q}"`);
    }
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await turn(auth, ANSWER_QUESTIONS[i % ANSWER_QUESTIONS.length]);
      times.push(performance.now() - started);
    }
    return { name: "a question answered through `POST /api/chat`, request → stream end", samples: times, goalMs };
  });
}
