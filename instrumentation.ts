// Runs once when a server process starts: migrate and warm the database, register the
// workflows, and begin the recovery sweep that continues runs a dead process left behind.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDatabase } = await import("@/lib/db");
  const database = await getDatabase();
  await import("@/lib/agents");
  const { instanceId, startRecoveryLoop } = await import("@/lib/runs");
  startRecoveryLoop();
  console.info(`[vigil] ${database.kind} database ready; run recovery sweep started on ${instanceId()}`);
}
