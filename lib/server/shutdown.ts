import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { shutdownRuns } from "@/lib/runs";

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
const holder = processSingleton("shutdown", (): { installed?: boolean; started?: Promise<void> } => ({}));

/**
 * On SIGTERM or SIGINT (a deploy, a scale-down, Ctrl-C) the process first hands its runs over
 * (lib/runs shutdownRuns: no new work, every lease ended at once so another instance continues
 * within a second or two), then lets the handlers that were there before run — `next start`'s,
 * which stops the HTTP server and exits — or exits itself when there are none. Installed once
 * per process, by instrumentation for `next start` and by the stand-alone server processes.
 */
export function installShutdownHandler(): void {
  if (holder.installed) return;
  holder.installed = true;
  for (const signal of SIGNALS) {
    // Next's own handler exits as soon as its server closes: it must wait for the handover. Only
    // the listeners a process shows are moved (a runner's hidden relay, tsx's, stays where it is).
    const before = process.listeners(signal);
    for (const listener of before) process.removeListener(signal, listener);
    process.on(signal, () => {
      holder.started ??= shutdownRuns()
        .then((runs) => {
          if (runs.length > 0)
            logger().info(
              { signal, runs: runs.length },
              `${signal}: handed ${runs.length} run(s) over to other instances`,
            );
        })
        .catch((error) => logger().error({ err: error }, "handing runs over at shutdown failed"));
      void holder.started.then(() => {
        if (before.length === 0) process.exit(0);
        for (const listener of before) (listener as (s: NodeJS.Signals) => void)(signal);
      });
    });
  }
}
