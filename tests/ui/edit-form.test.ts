import validator from "@rjsf/validator-ajv8";
import { describe, expect, it } from "vitest";
import {
  buildEditForm,
  changedFields,
  checkpointSchemaFor,
  formDataFrom,
  formRenderable,
  formValues,
  inferSchema,
} from "@/components/hitl/edit-form";
import { modificationsOf } from "@/components/hitl/modifications";
import { checkpointModificationChecks } from "@/lib/checkpoints";
import { CHECKPOINT_EDITABLE_FIELDS as CHECKPOINT_EDITABLE, CHECKPOINT_TYPE_NAMES } from "@/lib/checkpoints/contract";

const ANSWER = "Randomisation assigns participants to arms by chance [1].\n\nBlocks keep the arms balanced [2].";

/** A final_review case payload as the chat's review gate writes it. */
const finalReview = {
  response_text: ANSWER,
  response_confidence: 0.31,
  citations: [{ n: 1, title: "ICH E9", section: "2.3" }],
  sources_used: 3,
  agents_involved: ["Clinical Trial Designer"],
  total_duration_seconds: 4,
  total_cost_usd: 0,
  nodes_executed: ["retrieve", "answer"],
  tools_used: [],
  sub_agents_spawned: 0,
  evidence_level: "retrieved (lexical)",
  constitutional_compliance: true,
  quality_checks_passed: 0,
  quality_checks_failed: 1,
  allow_edits: true,
  save_to_history: true,
};

const lgv = {
  symptom: "Stops at the dock entrance",
  site: "Lyon DC2",
  lgv_id: "LGV-7",
  services_checked: ["navigation", "wifi"],
  evidence: [
    { source: "fleet manager log", observation: "NAV_LOST at 03:12" },
    { source: "operator", observation: "Reflector missing", at: "03:20" },
  ],
  missing_data: [],
  proposed_next_action: "Re-survey reflectors in aisle 4",
};

describe("the modify form of a final_review case", () => {
  const form = buildEditForm("final_review", finalReview);

  it("has the answer only, as a multi-line editor prefilled with it, from the checkpoint's schema", () => {
    expect(form.source).toBe("adapter");
    expect(form.fields).toEqual(["response_text"]);
    expect(form.jsonFields).toEqual([]);
    expect(Object.keys(form.schema.properties as object)).toEqual(["response_text"]);
    expect(form.schema).toMatchObject({
      type: "object",
      required: ["response_text"],
      properties: { response_text: { type: "string", minLength: 1, maxLength: 100_000, title: "Response text" } },
    });
    expect(form.uiSchema.response_text).toMatchObject({ "ui:widget": "textarea" });
    expect(form.formData).toEqual({ response_text: ANSWER });
  });

  it("validates with the form's validator: an emptied answer is refused, an edited one passes", () => {
    const emptied = validator.validateFormData({}, form.schema);
    expect(emptied.errors.map((e) => e.property)).toEqual(["response_text"]);
    const edited = validator.validateFormData({ response_text: "A shorter answer [1]." }, form.schema);
    expect(edited.errors).toEqual([]);
  });

  it("sends only the changed answer", () => {
    const values = formValues(form, { response_text: "A shorter answer [1]." });
    expect(values).toEqual({ values: { response_text: "A shorter answer [1]." } });
    if (!("values" in values)) throw new Error("unreachable");
    expect(changedFields(finalReview, values.values, form.fields)).toEqual({
      modifications: { response_text: "A shorter answer [1]." },
    });
    expect(changedFields(finalReview, { response_text: ANSWER }, form.fields)).toEqual({
      problem: "Nothing was changed — use Approve instead.",
    });
    expect(changedFields(finalReview, {}, form.fields)).toMatchObject({
      problem: expect.stringContaining("cannot be removed (Response text)"),
    });
  });

  it("is empty for a payload that is not a checkpoint request (the server would refuse other fields)", () => {
    const legacy = buildEditForm("final_review", { output: "An answer", confidence: 0.4 });
    expect(legacy.source).toBe("payload");
    expect(legacy.fields).toEqual([]);
    expect(checkpointSchemaFor("final_review", { output: "An answer" })).toBeNull();
  });
});

describe("the editable fields of checkpoint cases", () => {
  it("are the ones the server's modification checks let a decision modify, and no other", () => {
    const checks = checkpointModificationChecks();
    for (const type of CHECKPOINT_TYPE_NAMES) {
      const editable = CHECKPOINT_EDITABLE[type];
      expect(editable.length).toBeGreaterThan(0);
      const allowed = Object.fromEntries(editable.map((field) => [field, "x"]));
      expect(checks[type](allowed)).toEqual([]);
      expect(checks[type]({ not_editable_here: "x" })).toHaveLength(1);
    }
  });

  it("shows a free-form object (a tool's parameters) as JSON text, parsed back on submit", () => {
    const payload = {
      tool_name: "http_get",
      tool_category: "network",
      tool_parameters: { url: "https://example.org", retries: 2 },
      risk_level: "medium",
      data_access_scope: "read_only",
      external_api: true,
      reasoning: "Needs the page",
      expected_output: "HTML",
      requires_sandbox: false,
      timeout_seconds: 30,
    };
    const form = buildEditForm("tool_execution", payload);
    expect(form.source).toBe("adapter");
    expect(form.fields).toEqual(["tool_parameters"]);
    expect(form.jsonFields).toEqual(["tool_parameters"]);
    expect(form.schema.properties).toEqual({
      tool_parameters: { type: "string", title: "Tool parameters", description: "JSON" },
    });
    expect(JSON.parse(String(form.formData.tool_parameters))).toEqual(payload.tool_parameters);

    // Reformatted but equal JSON is no change; a changed value is.
    const same = formValues(form, { tool_parameters: '{"retries":2,"url":"https://example.org"}' });
    if (!("values" in same)) throw new Error("unreachable");
    expect(changedFields(payload, same.values, form.fields)).toMatchObject({ problem: expect.any(String) });
    const changed = formValues(form, { tool_parameters: '{"url":"https://example.org","retries":5}' });
    if (!("values" in changed)) throw new Error("unreachable");
    expect(changedFields(payload, changed.values, form.fields)).toEqual({
      modifications: { tool_parameters: { url: "https://example.org", retries: 5 } },
    });
    expect(formValues(form, { tool_parameters: "{oops" })).toMatchObject({
      problem: expect.stringContaining("Tool parameters is not valid JSON"),
    });
  });

  it("offers an optional editable field the payload does not have yet (the chosen option)", () => {
    const payload = {
      decision_type: "supplier",
      decision_description: "Pick a supplier",
      decision_rationale: "Cost",
      impact_level: "high",
      affected_stakeholders: ["ops"],
      decision_options: [
        { id: "a", label: "Acme" },
        { id: "b", label: "Bolt" },
      ],
      recommended_option: "a",
      recommendation_confidence: 0.7,
      evidence_sources: ["quote"],
      evidence_quality: "good",
    };
    const form = buildEditForm("critical_decision", payload);
    expect(form.fields).toEqual(["chosen_option"]);
    expect(form.schema.required).toEqual([]);
    expect(form.formData).toEqual({});
    expect(changedFields(payload, { chosen_option: "b" }, form.fields)).toEqual({
      modifications: { chosen_option: "b" },
    });
  });
});

describe("the modify form of an adapter whose schema the inbox cannot read", () => {
  const form = buildEditForm("lgv_troubleshooting", lgv);

  it("reads every top-level field off the payload, prefilled", () => {
    expect(form.source).toBe("payload");
    expect(form.fields).toEqual(Object.keys(lgv));
    expect(form.jsonFields).toEqual(["missing_data"]);
    expect((form.schema.properties as Record<string, unknown>).services_checked).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
    expect((form.schema.properties as Record<string, unknown>).evidence).toMatchObject({
      type: "array",
      items: {
        type: "object",
        properties: { source: { type: "string" }, observation: { type: "string" }, at: { type: "string" } },
        required: ["source", "observation"],
      },
    });
    expect(form.formData.symptom).toBe(lgv.symptom);
    expect(form.formData.missing_data).toBe("[]");
  });

  it("sends the changed fields only; objects whose keys moved are not changes", () => {
    const values = formValues(form, {
      ...form.formData,
      evidence: [
        { observation: "NAV_LOST at 03:12", source: "fleet manager log" },
        { source: "operator", observation: "Reflector missing", at: "03:20" },
      ],
      proposed_next_action: "Replace reflector 12",
    });
    if (!("values" in values)) throw new Error("unreachable");
    expect(changedFields(lgv, values.values, form.fields)).toEqual({
      modifications: { proposed_next_action: "Replace reflector 12" },
    });
  });

  it("switches back from the JSON editor with the JSON's values", () => {
    expect(formDataFrom(form, { ...lgv, site: "Lyon DC3", missing_data: ["firmware"] })).toMatchObject({
      site: "Lyon DC3",
      missing_data: '[\n  "firmware"\n]',
    });
  });
});

describe("reading a schema off a value", () => {
  it("knows scalars, lists of one kind, and objects; nothing else", () => {
    expect(inferSchema("x")).toEqual({ type: "string" });
    expect(inferSchema(3.5)).toEqual({ type: "number" });
    expect(inferSchema(false)).toEqual({ type: "boolean" });
    expect(inferSchema([1, 2])).toEqual({ type: "array", items: { type: "number" } });
    expect(inferSchema(null)).toBeNull();
    expect(inferSchema([])).toBeNull();
    expect(inferSchema(["a", 1])).toBeNull();
    expect(inferSchema({ a: { b: null } })).toBeNull();
    expect(inferSchema({ a: { b: { c: { d: { e: 1 } } } } })).toBeNull();
  });

  it("tells what a form can show from what must be edited as JSON", () => {
    expect(formRenderable({ type: "string", enum: ["a", "b"] })).toBe(true);
    expect(formRenderable({ type: "array", items: { type: "string" } })).toBe(true);
    expect(formRenderable({ type: "object", properties: { a: { type: "number" } } })).toBe(true);
    expect(formRenderable({ type: "object", additionalProperties: {} })).toBe(false);
    expect(formRenderable({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe(false);
    expect(formRenderable({ type: ["string", "null"] })).toBe(false);
    expect(formRenderable({})).toBe(false);
  });
});

describe("the JSON editor's changes", () => {
  it("refuses a field the adapter does not let a reviewer change", () => {
    const draft = JSON.stringify({ ...finalReview, response_confidence: 0.9 });
    expect(modificationsOf(finalReview, draft, CHECKPOINT_EDITABLE.final_review)).toEqual({
      problem: "Only Response text can be changed in this case, not response_confidence.",
    });
    const edited = JSON.stringify({ ...finalReview, response_text: "Shorter [1]." });
    expect(modificationsOf(finalReview, edited, CHECKPOINT_EDITABLE.final_review)).toEqual({
      modifications: { response_text: "Shorter [1]." },
    });
  });
});
