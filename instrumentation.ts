// Runs once when a server process starts: boot() migrates and seeds the database, installs the
// workflow catalog and starts the sweeps (run recovery; SLA escalation and resuming runs whose
// case was decided during a crash). Route handlers await the same boot, so no request can
// outrun it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First, so that no request is served without its socket address (sign-in limits need it).
  const { recordPeerAddresses } = await import("@/lib/auth");
  recordPeerAddresses();
  // A server deployment without its secrets stops here, in one sentence, not at first use.
  const { exitIfServerSecretsMissing } = await import("@/lib/secrets");
  exitIfServerSecretsMissing();
  const { installShutdownHandler, startServer } = await import("@/lib/server");
  // Before the first run can start here: a SIGTERM hands runs over to other instances.
  installShutdownHandler();
  // A failed start (a migration another instance was applying, a database still coming up) is
  // retried in the background; meanwhile requests answer 503 in the error shape, not 500.
  const database = await startServer();
  if (!database) return;
  const { instanceId } = await import("@/lib/runs");
  const { logger } = await import("@/lib/log");
  logger().info(
    { instance: instanceId(), database: database.kind },
    `${database.kind} database ready; run recovery and HITL sweeps started on ${instanceId()}`,
  );
}
