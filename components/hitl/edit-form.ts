// "Modify and approve" as a form: the adapter's JSON Schema narrowed to the fields a reviewer
// may change, prefilled with the payload. Pure (no React), so it is unit-tested on its own.
import { z } from "zod";
import {
  CHECKPOINT_EDITABLE_FIELDS,
  CHECKPOINT_REQUESTS,
  CHECKPOINT_TYPE_NAMES,
  type CheckpointTypeName,
} from "@/lib/checkpoints/contract";
import { humanize } from "./format";

export type JsonSchema = Record<string, unknown>;
type Payload = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isCheckpointType = (adapter: string): adapter is CheckpointTypeName =>
  (CHECKPOINT_TYPE_NAMES as string[]).includes(adapter);

/** The fields of an adapter's cases a reviewer may modify; null when every field may be. */
export function editableFieldsOf(adapter: string): readonly string[] | null {
  return isCheckpointType(adapter) ? CHECKPOINT_EDITABLE_FIELDS[adapter] : null;
}

/**
 * The JSON Schema a checkpoint's case was validated against (the checkpoint contract's, as the
 * server registers it), when the payload is such a request; null for anything else.
 */
export function checkpointSchemaFor(adapter: string, payload: Payload): JsonSchema | null {
  if (!isCheckpointType(adapter)) return null;
  const request = CHECKPOINT_REQUESTS[adapter];
  if (!request.safeParse(payload).success) return null;
  const { $schema: _dialect, ...schema } = z.toJSONSchema(request, { target: "draft-7" }) as JsonSchema;
  return schema;
}

const MAX_DEPTH = 4;

/**
 * A schema for a value whose adapter schema is not at hand: each field's type read from its
 * value. Null when the value has no shape a form can edit (null, an empty or mixed list, too deep).
 */
export function inferSchema(value: unknown, depth = 0): JsonSchema | null {
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    if (value.every((v) => typeof v === "string")) return { type: "array", items: { type: "string" } };
    if (value.every((v) => typeof v === "number")) return { type: "array", items: { type: "number" } };
    if (!value.every(isRecord)) return null;
    // Objects: every key any item has; required are the keys every item has.
    const properties: Record<string, JsonSchema> = {};
    for (const item of value) {
      for (const [key, v] of Object.entries(item)) {
        if (key in properties) continue;
        const schema = inferSchema(v, depth + 2);
        if (!schema) return null;
        properties[key] = schema;
      }
    }
    const required = Object.keys(properties).filter((key) => value.every((item) => key in item));
    return { type: "array", items: { type: "object", properties, required } };
  }
  if (isRecord(value)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, v] of Object.entries(value)) {
      const schema = inferSchema(v, depth + 1);
      if (!schema) return null;
      properties[key] = schema;
    }
    return { type: "object", properties, required: Object.keys(properties) };
  }
  return null;
}

const SCALARS = new Set(["string", "number", "integer", "boolean"]);

/** Whether the form's own widgets can edit a value of this schema (else it is edited as JSON text). */
export function formRenderable(schema: JsonSchema, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (schema.$ref || schema.anyOf || schema.oneOf || schema.allOf || schema.not || schema.if) return false;
  const type = schema.type;
  if (typeof type !== "string") return false;
  if (SCALARS.has(type)) return true;
  if (type === "array") {
    return isRecord(schema.items) && formRenderable(schema.items, depth + 1);
  }
  if (type === "object") {
    if (!isRecord(schema.properties) || schema.patternProperties) return false;
    // Free-form keys are edited as JSON: the form cannot name them.
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false;
    return Object.values(schema.properties).every((p) => isRecord(p) && formRenderable(p, depth + 1));
  }
  return false;
}

export interface EditForm {
  /** An object schema with only the editable fields. */
  schema: JsonSchema;
  /** RJSF ui options per field (labels, multi-line editors). */
  uiSchema: Record<string, unknown>;
  /** The fields' current values; JSON-text fields hold their value as formatted JSON. */
  formData: Payload;
  /** The editable fields, in the schema's order. */
  fields: string[];
  /** Fields the form edits as JSON text (their schema has no shape a form can show). */
  jsonFields: string[];
  /** Whether the schema came from the adapter, or was read off the payload. */
  source: "adapter" | "payload";
}

function rowsFor(text: string, min: number): number {
  const lines = text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 80)), 0);
  return Math.min(Math.max(lines + 1, min), 20);
}

function stringUi(schema: JsonSchema, value: unknown): Record<string, unknown> {
  if (Array.isArray(schema.enum)) return {};
  const text = typeof value === "string" ? value : "";
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const multiLine = maxLength > 300 || text.includes("\n") || text.length > 100;
  return multiLine ? { "ui:widget": "textarea", "ui:options": { rows: rowsFor(text, 4) } } : {};
}

/**
 * The form for modifying a case: the adapter schema's top-level properties (or, without one, a
 * schema read off the payload), narrowed to the editable fields, prefilled with the payload.
 */
export function buildEditForm(adapter: string, payload: Payload, adapterSchema?: JsonSchema | null): EditForm {
  const schema = adapterSchema ?? checkpointSchemaFor(adapter, payload);
  const editable = editableFieldsOf(adapter);
  const allowed = (key: string) => editable === null || editable.includes(key);

  const properties: Record<string, JsonSchema> = {};
  if (schema && isRecord(schema.properties)) {
    for (const [key, property] of Object.entries(schema.properties)) {
      if (allowed(key) && isRecord(property)) properties[key] = property;
    }
  } else {
    for (const [key, value] of Object.entries(payload)) {
      if (allowed(key)) properties[key] = inferSchema(value) ?? {};
    }
  }

  const fields = Object.keys(properties);
  const required = (
    schema ? (Array.isArray(schema.required) ? (schema.required as string[]) : []) : fields.filter((f) => f in payload)
  ).filter((key) => key in properties);
  const jsonFields = fields.filter((key) => !formRenderable(properties[key]));

  const formProperties: Record<string, JsonSchema> = {};
  const uiSchema: Record<string, unknown> = { "ui:submitButtonOptions": { norender: true } };
  const formData: Payload = {};
  for (const key of fields) {
    const property = properties[key];
    const title = typeof property.title === "string" ? property.title : humanize(key);
    const value = payload[key];
    if (jsonFields.includes(key)) {
      formProperties[key] = { type: "string", title, description: "JSON" };
      uiSchema[key] = {
        "ui:widget": "textarea",
        "ui:options": { rows: rowsFor(JSON.stringify(value ?? null, null, 2), 3) },
        "ui:classNames": "rjsf-json",
      };
      if (key in payload) formData[key] = JSON.stringify(value, null, 2);
      continue;
    }
    formProperties[key] = { ...property, title };
    if (property.type === "string") uiSchema[key] = stringUi(property, value);
    if (key in payload) formData[key] = value;
  }

  const narrowed: JsonSchema = { type: "object", properties: formProperties, required };
  for (const defs of ["definitions", "$defs"]) if (schema && isRecord(schema[defs])) narrowed[defs] = schema[defs];
  return { schema: narrowed, uiSchema, formData, fields, jsonFields, source: schema ? "adapter" : "payload" };
}

/** JSON with object keys sorted and undefined values dropped: equal values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .filter((k) => v[k] !== undefined)
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** The fields whose values differ from the payload, or why the edits cannot be sent. */
export function changedFields(
  original: Payload,
  edited: Payload,
  fields: readonly string[],
): { modifications: Payload } | { problem: string } {
  const removed = fields.filter((key) => original[key] !== undefined && edited[key] === undefined);
  if (removed.length > 0) {
    return { problem: `Fields cannot be removed (${removed.map(humanize).join(", ")}); change their values instead.` };
  }
  const modifications: Payload = {};
  for (const key of fields) {
    if (edited[key] !== undefined && !sameJson(edited[key], original[key])) modifications[key] = edited[key];
  }
  if (Object.keys(modifications).length === 0) return { problem: "Nothing was changed — use Approve instead." };
  return { modifications };
}

/**
 * What the form holds, as payload values: JSON-text fields parsed back. Reports the first
 * field whose JSON does not parse.
 */
export function formValues(form: EditForm, formData: Payload): { values: Payload } | { problem: string } {
  const values: Payload = {};
  for (const key of form.fields) {
    const value = formData[key];
    if (!form.jsonFields.includes(key) || value === undefined) {
      values[key] = value;
      continue;
    }
    try {
      values[key] = JSON.parse(String(value));
    } catch (error) {
      return { problem: `${humanize(key)} is not valid JSON: ${(error as Error).message}` };
    }
  }
  return { values };
}

/** The form's values for a payload edited as JSON (switching back from the JSON editor). */
export function formDataFrom(form: EditForm, payload: Payload): Payload {
  const data: Payload = {};
  for (const key of form.fields) {
    if (!(key in payload)) continue;
    data[key] = form.jsonFields.includes(key) ? JSON.stringify(payload[key], null, 2) : payload[key];
  }
  return data;
}
