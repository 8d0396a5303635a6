import { BUILT_IN_UPCASTERS } from "./adapters";

// Older payloads are read through upcasters: pure functions from version n to n+1 of an
// adapter's payload, keyed by adapter and source version. The stored row never changes; a
// reader asks for the active version and gets the payload walked up as far as upcasters go.
// The built-in adapters' upcasters are a static table next to their schemas (adapters.ts);
// registerUpcaster adds others (or replaces a built-in step) in code.

export type Upcaster = (payload: Record<string, unknown>) => Record<string, unknown>;

const UPCASTERS = new Map<string, Upcaster>();
const key = (adapter: string, fromVersion: number) => `${adapter}@${fromVersion}`;

/** Declares how a payload of `adapter` version `fromVersion` reads as version `fromVersion + 1`. */
export function registerUpcaster(adapter: string, fromVersion: number, upcast: Upcaster): void {
  UPCASTERS.set(key(adapter, fromVersion), upcast);
}

function upcasterFor(adapter: string, fromVersion: number): Upcaster | undefined {
  const registered = UPCASTERS.get(key(adapter, fromVersion));
  if (registered) return registered;
  return Object.hasOwn(BUILT_IN_UPCASTERS, adapter) ? BUILT_IN_UPCASTERS[adapter][fromVersion] : undefined;
}

/** The payload read as `targetVersion`, or as the highest version the upcaster chain reaches. */
export function upcastPayload(
  adapter: string,
  payload: Record<string, unknown>,
  fromVersion: number,
  targetVersion: number,
): { payload: Record<string, unknown>; version: number } {
  let version = fromVersion;
  let current = payload;
  while (version < targetVersion) {
    const step = upcasterFor(adapter, version);
    if (!step) break;
    current = step(structuredClone(current));
    version += 1;
  }
  return { payload: current, version };
}
