// Every VIGIL_* setting, parsed with one zod schema: the only code that reads those variables.
import "server-only";

export { settingsTable, withSettingsTable } from "./doc-table";
export { config, configProblems, readConfig } from "./read";
export type { Config, Env, LogLevel } from "./settings";
