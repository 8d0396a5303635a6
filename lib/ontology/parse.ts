import type { z } from "zod";
import { DisplayRegistry, DomainRegistry, type RegistryIssue, type RegistryParse } from "./contract";

// An admin pastes JSON or an import hands over parsed JSON; both arrive here, and whatever is
// wrong comes back as a list the editor can show beside the field, never as a thrown error.
function parseWith<T>(schema: z.ZodType<T>, input: unknown): RegistryParse<T> {
  let json = input;
  if (typeof input === "string") {
    try {
      json = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : "unreadable";
      return { ok: false, issues: [{ path: [], message: `not valid JSON: ${reason}` }] };
    }
  }
  const hidden = prototypeKeys(json, []);
  if (hidden.length > 0) return { ok: false, issues: hidden };
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, registry: result.data };
  return { ok: false, issues: result.error.issues.map(toIssue) };
}

// JSON.parse makes "__proto__" an ordinary key, and zod's records drop it without a word; it is
// reported instead, so an editor never sees an entry vanish and no lookup meets it.
function prototypeKeys(value: unknown, path: (string | number)[]): RegistryIssue[] {
  // Below the registries' own depth the schema refuses the shape anyway; stopping keeps a
  // deeply nested hostile document from exhausting the stack here.
  if (typeof value !== "object" || value === null || path.length > 8) return [];
  const out: RegistryIssue[] = [];
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (key === "__proto__") out.push({ path: at, message: 'a key cannot be named "__proto__"' });
    else out.push(...prototypeKeys(child, at));
  }
  return out;
}

function toIssue(issue: z.core.$ZodIssue): RegistryIssue {
  return { path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)), message: issue.message };
}

/** The domain registry (`domain_registry.json`) from JSON text or a parsed value. */
export function parseDomainRegistry(json: unknown): RegistryParse<DomainRegistry> {
  return parseWith(DomainRegistry, json);
}

/** The display attributes registry (`display_attributes_registry.json`) from JSON text or a parsed value. */
export function parseDisplayRegistry(json: unknown): RegistryParse<DisplayRegistry> {
  return parseWith(DisplayRegistry, json);
}

/** An issue's path as people read it: `terms.crane.resolution.primary.columns[1]`, `tables["northwind.products"]`. */
export function issuePath(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(part)) return `${out}[${JSON.stringify(part)}]`;
    return out === "" ? part : `${out}.${part}`;
  }, "");
}
