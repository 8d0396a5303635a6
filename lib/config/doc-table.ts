import { SETTINGS, type Setting } from "./settings";

/** Where the generated table sits in docs/configuration.md. */
export const SETTINGS_TABLE_START =
  "<!-- settings:start (npm run docs:settings writes this table from lib/config/settings.ts) -->";
export const SETTINGS_TABLE_END = "<!-- settings:end -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The Markdown table of every VIGIL_* setting, in the schema's order. */
export function settingsTable(): string {
  const rows = (Object.values(SETTINGS) as Setting<unknown>[]).map(
    (s) => `| \`${s.env}\` | ${cell(s.shown)} | ${cell(s.description)} |`,
  );
  return ["| variable | default | meaning |", "| --- | --- | --- |", ...rows].join("\n");
}

/** `doc` with the text between the markers replaced by the current table; throws when a marker is missing. */
export function withSettingsTable(doc: string): string {
  const start = doc.indexOf(SETTINGS_TABLE_START);
  const end = doc.indexOf(SETTINGS_TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(`The document lacks the settings table markers (${SETTINGS_TABLE_START} … ${SETTINGS_TABLE_END}).`);
  }
  return `${doc.slice(0, start + SETTINGS_TABLE_START.length)}\n${settingsTable()}\n${doc.slice(end)}`;
}
