import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { processSingleton } from "@/lib/process";

const holder = processSingleton("instance", (): { instance?: string } => ({}));

/** This process's name in run leases: host, pid and a random part (pids are reused). */
export function instanceId(): string {
  holder.instance ??= `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  return holder.instance;
}

/** How long a lease lasts without a heartbeat; a dead process's runs are recovered after it. */
export function leaseMs(): number {
  return Number(process.env.VIGIL_RUN_LEASE_MS ?? 30_000);
}
