// Runs once when a server process starts: boot() migrates and seeds the database, installs the
// workflow catalog and starts the sweeps (run recovery; SLA escalation and resuming runs whose
// case was decided during a crash). Route handlers await the same boot, so no request can
// outrun it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("@/lib/server");
  const database = await boot();
  const { instanceId } = await import("@/lib/runs");
  console.info(`[vigil] ${database.kind} database ready; run recovery and HITL sweeps started on ${instanceId()}`);
}
