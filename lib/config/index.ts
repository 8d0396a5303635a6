// Every VIGIL_* setting, parsed with one zod schema: the only code that reads those variables.
import "server-only";

export { withSettingsTable } from "./doc-table";
export { config, configProblems } from "./read";
export type { Env, LogLevel } from "./settings";
