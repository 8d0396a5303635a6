import { sql } from "drizzle-orm";
import { rowsOf, type TenantScope, withTenant } from "@/lib/db";

/**
 * Node executions of a run that started and never ended in its trace (chained or still in the
 * outbox): per node, starts minus completes, errors and stops for a person. After a crash these
 * are the attempts the dead process left open; recovery closes each with a node_error before
 * the node runs again, so every start in the trace has its end.
 */
export async function openNodeAttempts(scope: TenantScope, runId: string): Promise<Map<string, number>> {
  const result = await withTenant(scope, (tx) =>
    tx.execute(sql`
      select node_name,
             count(*) filter (where event_type = 'node_start')
               - count(*) filter (where event_type in ('node_complete', 'node_error', 'hitl_request')) as open
      from (
        select node_name, event_type from execution_trace where run_id = ${runId}
        union all
        select node_name, event_type from execution_trace_outbox where run_id = ${runId}
      ) events
      where node_name is not null
      group by node_name`),
  );
  const open = new Map<string, number>();
  for (const row of rowsOf<{ node_name: string; open: number | string }>(result)) {
    const n = Number(row.open);
    if (n > 0) open.set(row.node_name, n);
  }
  return open;
}
