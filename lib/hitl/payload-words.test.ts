import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { payloadIssueMessage } from "./payload-words";

// A review payload's findings as people read them: the field's title and what to fix, instead of
// Ajv's "must have required property 'response_text'".

describe("a review payload that does not match its schema", () => {
  const schema = {
    type: "object",
    required: ["response_text", "response_confidence"],
    properties: {
      response_text: { type: "string", minLength: 1, title: "Response text" },
      response_confidence: { type: "number", minimum: 0, maximum: 1 },
      evidence: { type: "array", items: { type: "object", properties: { source: { type: "string" } } } },
      severity: { enum: ["low", "high"] },
    },
    additionalProperties: false,
  };
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const messages = (payload: unknown) => {
    expect(validate(payload)).toBe(false);
    return (validate.errors ?? []).map((e) => payloadIssueMessage(schema, e));
  };

  it("names a missing field by its title, not Ajv's 'must have required property'", () => {
    const said = messages({ response_confidence: 0.5 });
    expect(said).toEqual(["Response text is required."]);
  });

  it("says what each wrong value should be, in words", () => {
    const said = messages({
      response_text: "",
      response_confidence: 2,
      evidence: [{ source: 3 }],
      severity: "medium",
      extra_field: true,
    });
    expect(said).toEqual(
      expect.arrayContaining([
        "Response text cannot be empty.",
        "Response confidence must be at most 1.",
        "Source must be text.",
        "Severity must be one of: low, high.",
        "Extra field is not a field here; remove it.",
      ]),
    );
    expect(said.join(" ")).not.toMatch(/must have|must NOT|must be string/);
  });
});
