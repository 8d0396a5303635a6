import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "./fixtures";
import { specServerPort } from "./ports";
import {
  api as apiAt,
  listening,
  type ServerProcess,
  seededDataDir,
  signInAt,
  startServer as start,
  stopServer,
} from "./server-process";

// A decision made as a freshly started server's very first request must resume its run: the
// workflow catalog is installed by boot() before any handler runs, whatever route comes first.

const PORT = specServerPort(2);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = ".data/e2e-restart";

const startServer = (): ServerProcess =>
  start(PORT, { VIGIL_DATA_DIR: DATA_DIR, BETTER_AUTH_SECRET: "restart-secret-restart-secret-restart" });
const stop = stopServer;
const signIn = (email: string) => signInAt(BASE, email);
const api = (cookie: string, path: string, body?: unknown) => apiAt(BASE, cookie, path, body);

async function runStatus(cookie: string, runId: string, until: (status: string) => boolean): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const { body } = await api(cookie, `/api/runs/${runId}`);
    const status = (body.run as { status: string } | undefined)?.status ?? String(body.status);
    if (until(status)) return status;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`run ${runId} did not settle`);
}

/** Starts a demo-echo run that stops at its plan approval, and finds the case its checkpoint opened. */
async function interruptedRunWithCase(member: string, reviewer: string): Promise<{ runId: string; caseId: string }> {
  const started = await api(member, "/api/runs", { workflow: "demo-echo", input: { message: "restart me please" } });
  expect(started.status).toBe(202);
  const runId = started.body.runId as string;
  expect(await runStatus(member, runId, (s) => s !== "running")).toBe("interrupted");
  const queue = await api(reviewer, "/api/hitl/queue?adapter_id=plan_approval&limit=100");
  const items = queue.body.items as { id: string }[];
  for (const item of items) {
    const kase = await api(reviewer, `/api/hitl/cases/${item.id}`);
    const refs = (kase.body.case as { refs: { ref_type: string; ref_value: string }[] }).refs;
    if (refs.some((r) => r.ref_type === "run" && r.ref_value === runId)) return { runId, caseId: item.id };
  }
  throw new Error("the run's checkpoint opened no case");
}

test("a decision as a restarted server's first request resumes its run, over REST and over MCP", async () => {
  test.setTimeout(300_000);
  await seededDataDir(DATA_DIR);

  let server = startServer();
  await listening(server);
  const member = await signIn("expert@demo.local");
  const reviewer = await signIn("reviewer@demo.local");
  const admin = await signIn("admin@demo.local");
  const key = await api(admin, "/api/api-keys", { name: "restart test", role: "reviewer" });
  expect(key.status).toBe(201);
  const apiKey = (key.body.key as { key: string }).key;
  const viaRest = await interruptedRunWithCase(member, reviewer);
  const viaMcp = await interruptedRunWithCase(member, reviewer);
  await stop(server);

  try {
    // Restart; the reviewer's decision is the first request this process serves.
    server = startServer();
    await listening(server);
    const decided = await api(reviewer, `/api/hitl/cases/${viaRest.caseId}/decision`, {
      request_id: `restart-${viaRest.caseId}`,
      decision: "approved",
    });
    expect(decided.status).toBe(200);
    expect(decided.body.linkedRun).toMatchObject({ runId: viaRest.runId, resume: "resumed" });
    expect(await runStatus(member, viaRest.runId, (s) => s !== "running")).toBe("completed");
    await stop(server);

    // Again, with the decision made over MCP as the first request.
    server = startServer();
    await listening(server);
    const client = new Client({ name: "restart-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    const answer = await client.callTool({
      name: "record_decision",
      arguments: {
        case_id: viaMcp.caseId,
        decision: "approved",
        notes: "Plan checked after the restart",
        actor: { name: "Riley Reviewer", role: "reviewer" },
        request_id: `restart-${viaMcp.caseId}`,
      },
    });
    expect(answer.isError).toBeFalsy();
    const text = (answer.content as { type: string; text: string }[])[0].text;
    expect(JSON.parse(text)).toMatchObject({ linked_run: { run_id: viaMcp.runId, resume: "resumed" } });
    await client.close();
    expect(await runStatus(member, viaMcp.runId, (s) => s !== "running")).toBe("completed");
  } finally {
    await stop(server);
  }
});
