import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/process";

const holder = processSingleton("instance", (): { instance?: string; draining?: boolean } => ({}));

/** This process's name in run leases: host, pid and a random part (pids are reused). */
export function instanceId(): string {
  holder.instance ??= `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  return holder.instance;
}

/**
 * How long a lease lasts without a heartbeat (`VIGIL_RUN_LEASE_MS`, default 4 s): a process
 * that died without handing its runs over (kill -9, a lost host) has them recovered after it.
 * Short is safe: a process that was only slow and lost its lease is fenced out (its writes are
 * refused), and the heartbeat is one statement per process, whatever the number of runs.
 */
export function leaseMs(): number {
  return config().runLeaseMs;
}

/**
 * How often an execution renews its lease (`VIGIL_RUN_HEARTBEAT_MS`, default a quarter of the
 * lease): three heartbeats may fail in a row, on a slow database, before the lease runs out.
 */
export function heartbeatMs(): number {
  const lease = leaseMs();
  return Math.min(config().runHeartbeatMs ?? Math.floor(lease / 4), Math.floor(lease / 2));
}

/**
 * How often the recovery sweep looks for runs to take over: those of an instance that died
 * (its presence lock gone, lib/runs presence.ts), whose leases may still be live, and those whose
 * lease ran out. A quarter of the lease, between 250 and 500 ms: the sweep's period is most of
 * the stall after a kill -9, and a turn is one statement. It also wakes when the next lease it
 * saw runs out.
 */
export function recoverySweepMs(): number {
  return Math.min(500, Math.max(250, Math.floor(leaseMs() / 4)));
}

/** The process is shutting down: it takes no more runs and hands over those it executes. */
export function draining(): boolean {
  return holder.draining === true;
}

export function startDraining(): void {
  holder.draining = true;
}
