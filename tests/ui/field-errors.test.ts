import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/ui/api";
import { rangeProblem } from "@/components/ui/FilterForm";
import { fieldErrors, fieldOfPath } from "@/components/ui/field-errors";
import { CreateDataSourceInput } from "@/lib/datasources/contract";
import { errors } from "@/lib/errors";

/** What apiFetch throws for a server error: the documented shape's code, message and details. */
function asApiError(error: ReturnType<typeof errors.validation>): ApiError {
  return new ApiError(400, error.code, error.message, error.details);
}

describe("fieldErrors", () => {
  it("puts each validation issue under its field, and nothing in general when all are placed", () => {
    const parsed = CreateDataSourceInput.safeParse({
      name: "",
      kind: "postgres",
      connectionString: "postgres://db.example.com/sales",
      allowedSchemas: ["public"],
    });
    const mapped = fieldErrors(asApiError(errors.validation(parsed.error?.issues ?? [])), [
      "name",
      "connectionString",
      "allowedSchemas",
    ]);
    expect(mapped.fields.connectionString).toBe("The connection string names no user.");
    expect(mapped.fields.name).toMatch(/\S/);
    expect(mapped.fields.allowedSchemas).toBeUndefined();
    expect(mapped.general).toBeNull();
  });

  it("keeps issues on fields the form does not show in general, with their path", () => {
    const error = new ApiError(400, "VALIDATION_FAILED", "The request does not match the expected shape.", [
      { path: "name", message: "Name is required." },
      { path: "rowLimit", message: "Too big." },
    ]);
    expect(fieldErrors(error, ["name"])).toEqual({
      fields: { name: "Name is required." },
      general: "rowLimit: Too big.",
    });
  });

  it("reads JSON-pointer paths (payload issues) by their first segment, first message winning", () => {
    const error = new ApiError(422, "PAYLOAD_INVALID", "The payload does not match.", [
      { path: "/evidence/0/source", keyword: "type", message: "Source must be text." },
      { path: "/evidence", keyword: "minItems", message: "Evidence needs at least 2 items." },
    ]);
    expect(fieldErrors(error, ["evidence"]).fields).toEqual({ evidence: "Source must be text." });
    expect(fieldOfPath("/site", ["site"])).toBe("site");
    expect(fieldOfPath("/site", ["sites"])).toBeNull();
  });

  it("places a row's issue under that row's field, the longest known path winning", () => {
    const error = new ApiError(400, "VALIDATION_FAILED", "The request does not match the expected shape.", [
      { path: "principles.1.id", message: "Use lower_snake_case." },
      { path: "principles", message: "Ids must be unique." },
    ]);
    expect(fieldErrors(error, ["principles", "principles.0.id", "principles.1.id"]).fields).toEqual({
      "principles.1.id": "Use lower_snake_case.",
      principles: "Ids must be unique.",
    });
  });

  it("shows an error without field details, or a network failure, as the general message", () => {
    expect(fieldErrors(new ApiError(409, "CONFLICT", "That name is taken.", undefined), ["name"])).toEqual({
      fields: {},
      general: "That name is taken.",
    });
    expect(fieldErrors(new TypeError("Failed to fetch"), ["name"])).toEqual({
      fields: {},
      general: "Failed to fetch",
    });
    expect(fieldErrors(null, ["name"])).toEqual({ fields: {}, general: null });
  });
});

describe("rangeProblem", () => {
  const ranges = [{ from: "from", to: "to", message: "From is after To." }] as const;
  it("refuses a start after its end and accepts an open or ordered range", () => {
    expect(rangeProblem({ from: "2026-03-02", to: "2026-03-01" }, ranges)).toBe("From is after To.");
    expect(rangeProblem({ from: "2026-03-01", to: "2026-03-01" }, ranges)).toBeNull();
    expect(rangeProblem({ from: "2026-03-01" }, ranges)).toBeNull();
  });
});
