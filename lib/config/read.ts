import { type Config, type Env, SETTINGS, type Setting, type SettingKey } from "./settings";

export interface ConfigReading {
  config: Config;
  /** One sentence per variable whose value was refused (its default applies instead). */
  problems: string[];
}

const ENTRIES = Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][];

/**
 * Parses every setting from `env` with its schema. A blank variable counts as unset. A value the
 * schema refuses does not stop the process — each setting falls back to its default, as it always
 * has — but it is named in `problems`, which boot logs, so a typo is seen at start and not guessed at.
 */
export function readSettings(env: Env): ConfigReading {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of ENTRIES) {
    const raw = env[setting.env];
    if (raw === undefined || raw.trim() === "") {
      out[key] = setting.fallback(env);
      continue;
    }
    const parsed = setting.schema.safeParse(raw);
    if (parsed.success) {
      out[key] = parsed.data;
    } else {
      out[key] = setting.fallback(env);
      const reason = parsed.error.issues[0]?.message ?? "not readable";
      problems.push(
        `${setting.env}=${JSON.stringify(raw)} is ignored (${reason}); the default, ${setting.shown}, applies.`,
      );
    }
  }
  return { config: Object.freeze(out) as Config, problems };
}

/** The typed settings of `env` (a test passes its own variables; the process passes none). */
export function readConfig(env: Env): Config {
  return readSettings(env).config;
}

// Parsed once per distinct set of values: a deployment's environment does not change, so its
// settings are parsed once at boot; a test that sets a variable gets the new value on the next
// read instead of one cached from before.
let last: { key: string; reading: ConfigReading } | undefined;

function fingerprint(env: Env): string {
  let key = env.VITEST ?? "\u0001";
  for (const [, setting] of ENTRIES) key += `\u0000${env[setting.env] ?? "\u0001"}`;
  return key;
}

function reading(env: Env): ConfigReading {
  const key = fingerprint(env);
  if (last?.key !== key) last = { key, reading: readSettings(env) };
  return last.reading;
}

/** This process's settings (or those of `env`, as a test passes them). */
export function config(env: Env = process.env): Config {
  return reading(env).config;
}

/** What was wrong with the settings' values, one sentence each; empty when all read. */
export function configProblems(env: Env = process.env): string[] {
  return reading(env).problems;
}
