import type { ErrorObject } from "ajv";
import { readableName } from "@/lib/words";

// Ajv's findings in the words of the form a person filled in: the field's title from the schema
// ("Response text", not `response_text`) and what to do, instead of "must have required property
// 'response_text'". Paths, keywords and params are kept for programs.

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `response_text` → "Response text", `lgv_id` → "LGV ID". */
const humanizeKey = readableName;

/** The schema of the value at a JSON pointer, following properties and items. */
function schemaAt(root: Schema, pointer: string): Schema | null {
  let node: Schema | null = root;
  for (const raw of pointer.split("/").slice(1)) {
    if (!node) return null;
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const properties: unknown = node.properties;
    if (isSchema(properties) && isSchema(properties[segment])) node = properties[segment] as Schema;
    else if (/^\d+$/.test(segment) && isSchema(node.items)) node = node.items;
    else return null;
  }
  return node;
}

/** What the person calls the value at a pointer: its schema's title, else its key, else "The answer". */
function nameAt(root: Schema, pointer: string): string {
  const title = schemaAt(root, pointer)?.title;
  if (typeof title === "string" && title.trim()) return title.trim();
  const segments = pointer.split("/").filter(Boolean);
  const last = segments.at(-1);
  if (last === undefined) return "The answer";
  if (/^\d+$/.test(last)) {
    const parent = segments.length > 1 ? nameAt(root, `/${segments.slice(0, -1).join("/")}`) : "The list";
    return `${parent}, item ${Number(last) + 1},`;
  }
  return humanizeKey(last);
}

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  integer: "a whole number",
  boolean: "yes or no",
  array: "a list",
  object: "a group of fields",
  null: "empty",
};

/** One Ajv finding as a sentence that names the field and says what to fix. */
export function payloadIssueMessage(root: Schema, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath || "";
  const name = nameAt(root, at);
  switch (error.keyword) {
    case "required":
      return `${nameAt(root, `${at}/${String(params.missingProperty)}`)} is required.`;
    case "type": {
      const types = (Array.isArray(params.type) ? params.type : String(params.type).split(",")).map(
        (t) => TYPE_WORDS[String(t)] ?? String(t),
      );
      return `${name} must be ${types.join(" or ")}.`;
    }
    case "minLength":
      return Number(params.limit) <= 1
        ? `${name} cannot be empty.`
        : `${name} needs at least ${params.limit} characters.`;
    case "maxLength":
      return `${name} can have at most ${params.limit} characters.`;
    case "minItems":
      return `${name} needs at least ${params.limit} ${Number(params.limit) === 1 ? "item" : "items"}.`;
    case "maxItems":
      return `${name} can have at most ${params.limit} items.`;
    case "minimum":
    case "exclusiveMinimum":
      return `${name} must be ${error.keyword === "minimum" ? "at least" : "more than"} ${params.limit}.`;
    case "maximum":
    case "exclusiveMaximum":
      return `${name} must be ${error.keyword === "maximum" ? "at most" : "less than"} ${params.limit}.`;
    case "enum":
      return `${name} must be one of: ${(params.allowedValues as unknown[]).map(String).join(", ")}.`;
    case "const":
      return `${name} must be ${JSON.stringify(params.allowedValue)}.`;
    case "additionalProperties":
      return `${humanizeKey(String(params.additionalProperty))} is not a field here; remove it.`;
    case "pattern":
      return `${name} is not in the expected form.`;
    default:
      return `${name} ${error.message ?? "is not valid"}.`;
  }
}
