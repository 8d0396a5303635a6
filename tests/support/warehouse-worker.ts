// A stand-in server instance for the server warehouse test: it boots on DATABASE_URL as a
// deployment does, asks the Data Analyst one question through the chat route (the first use of
// the demo source, which loads or checks the warehouse in the server database), and prints the
// answer's rows and what its warehouse load did as one JSON line.

import type { UIMessageChunk } from "ai";
import { serverWarehouseOfProcess } from "@/lib/datasources";
import type { SqlResultPart } from "@/lib/runs/contract";
import { boot } from "@/lib/server";
import { drainTrace } from "@/lib/trace";
import { postChat, principal } from "../chat/support";

const [tenantId, question] = process.argv.slice(2);

await boot({ sweeps: false });
const member = await principal(tenantId);
const started = Date.now();
const turn = await postChat(member.auth, { agentId: "data-analyst", message: question });
const part = (turn.chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;
const warehouse = await serverWarehouseOfProcess();
process.stdout.write(
  `${JSON.stringify({
    status: turn.status,
    answerMs: Date.now() - started,
    rows: part?.rows ?? null,
    sql: part?.sql ?? null,
    tail: part ? null : (turn.chunks as UIMessageChunk[]).slice(-4),
    datasets: warehouse?.datasets.map((d) => ({ schema: d.schema, state: d.state })) ?? null,
    loadMs: warehouse?.ms ?? null,
  })}\n`,
);
await drainTrace();
process.exit(0);
