// Runs once when a server process starts: migrate and warm the database, register the
// workflows, and begin the sweeps: run recovery (continues runs a dead process left behind) and
// the HITL sweeps (SLA escalation; resuming runs whose case was decided during a crash).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDatabase } = await import("@/lib/db");
  const database = await getDatabase();
  await import("@/lib/agents");
  const { instanceId, startRecoveryLoop } = await import("@/lib/runs");
  startRecoveryLoop();
  const { startHitlSweeps } = await import("@/lib/hitl");
  startHitlSweeps();
  console.info(`[vigil] ${database.kind} database ready; run recovery and HITL sweeps started on ${instanceId()}`);
}
