/**
 * Puts the environment back to `saved` in place. Never `process.env = saved`: that swaps the
 * object for a plain copy, and what reads or stubs the environment later (Vitest's `vi.stubEnv`
 * among them) no longer sees the same one as the settings do.
 */
export function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) {
    if (!(name in saved)) delete process.env[name];
  }
  Object.assign(process.env, saved);
}
