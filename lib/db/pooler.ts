import type postgres from "postgres";
import { someCause } from "./errors";

/**
 * PgBouncer (1.18 here, and poolers built like it) refuses a connection whose startup packet
 * names a parameter it does not track ("unsupported startup parameter"), whatever its pool mode;
 * Vigil's connection timeouts travel that way (timeouts.ts). Behind such a pooler the pool
 * connects without them and sets them on each connection it hands out instead.
 */
export function refusesStartupParameters(error: unknown): boolean {
  return someCause(error, (e) => typeof e.message === "string" && /unsupported startup parameter/i.test(e.message));
}

/** The connection timeouts this code sets by name; nothing else is ever interpolated. */
const TIMEOUTS = ["idle_in_transaction_session_timeout", "lock_timeout", "statement_timeout"] as const;

/**
 * Sets `timeouts` (as `connectionTimeouts` returns them) for the rest of the session, in one
 * statement: one round trip. In a session-mode pooler the session is the server connection this
 * client connection holds until it closes.
 */
export async function applyTimeouts(
  connection: Pick<postgres.Sql, "unsafe">,
  timeouts: Record<string, string>,
): Promise<void> {
  const names = TIMEOUTS.filter((name) => timeouts[name] !== undefined);
  if (names.length === 0) return;
  const calls = names.map((name, i) => `set_config('${name}', $${i + 1}, false)`).join(", ");
  await connection.unsafe(
    `select ${calls}`,
    names.map((name) => timeouts[name]),
  );
}
