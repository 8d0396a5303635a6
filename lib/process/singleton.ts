// Process-wide state lives here and nowhere else. Next.js may load a module more than once in
// one process (instrumentation, each route bundle, a dev reload), so a module-level `let` would
// give each copy its own database, bus or timer. One map on globalThis, keyed by name, is shared
// by every copy.
const KEY = Symbol.for("vigil.process");

function store(): Map<string, unknown> {
  const root = globalThis as { [KEY]?: Map<string, unknown> };
  root[KEY] ??= new Map();
  return root[KEY];
}

/** The one value named `name` in this process, made by `create` on first use. */
export function processSingleton<T>(name: string, create: () => T): T {
  const values = store();
  if (!values.has(name)) values.set(name, create());
  return values.get(name) as T;
}
