// A stand-in server process for the trace crash tests: on the database of DATABASE_URL it
// commits trace events for one tenant in a loop, two per transaction under one marker, while
// sequencing (by nudge, by sweep and by hand), and reports each commit on stdout — until it is
// killed, or until it has made `limit` commits (then it chains what is left and exits).

import { withTenant } from "@/lib/db";
import { nudgeSequencer, sequenceTrace, startTraceSequencer, traceIn } from "@/lib/trace";

const [tenantId, tag, limitArg] = process.argv.slice(2);
const scope = { tenantId };
const limit = limitArg ? Number(limitArg) : Number.POSITIVE_INFINITY;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

startTraceSequencer();
say({ ready: true });
for (let i = 0; i < limit; i++) {
  const marker = `${tag}:${i}`;
  await withTenant(scope, (tx) =>
    traceIn(tx, scope, [
      { eventType: "tool_invocation", nodeName: "probe", eventData: { marker, part: 0 } },
      { eventType: "tool_result", nodeName: "probe", eventData: { marker, part: 1 }, durationMs: i },
    ]),
  );
  say({ committed: i });
  nudgeSequencer(tenantId);
  if (i % 5 === 0) await sequenceTrace(tenantId);
}
await sequenceTrace();
say({ done: true });
process.exit(0);
