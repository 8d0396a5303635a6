import { getDatabase } from "@/lib/db";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { instanceId } from "./instance";

// A process killed with its runs (kill -9, the OOM killer, a crashed container) stops renewing
// their leases, but waiting for the leases to run out is most of the stall that follows. Its
// connections, though, end with it, and the server ends their sessions at once: an instance that
// executes runs registers itself as present under a session lock on a connection of its own, and
// other instances' recovery sweeps claim the runs of a registered instance whose lock is gone
// (`vigil_claim_stale_runs`), without waiting for the leases. A frozen process (SIGSTOP, a paused
// VM) keeps its connection and is still taken over when its leases run out; a live one that lost
// its presence connection may lose its runs to another instance, which fencing makes safe, and
// registers again at its next heartbeat.

interface PresenceState {
  registering?: Promise<void>;
  warned?: boolean;
}

const state = processSingleton("run-presence", (): PresenceState => ({}));

/**
 * Registers this instance as present, or again after a lost connection (at most one call at a
 * time). Never throws: an instance that is not registered is judged by its leases, as before.
 */
export function keepPresent(): Promise<void> {
  state.registering ??= register().finally(() => {
    state.registering = undefined;
  });
  return state.registering;
}

async function register(): Promise<void> {
  try {
    const { presence } = await getDatabase();
    // An embedded database has one process: nobody to take over from it.
    if (!presence) return;
    if (!(await presence.register(instanceId())) && !state.warned) {
      state.warned = true;
      logger().warn("this instance's presence lock is held by another session; its runs are recovered by lease only");
    }
  } catch {
    // The database did not answer: the next heartbeat tries again.
  }
}
