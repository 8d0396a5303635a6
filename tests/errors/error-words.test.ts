import { describe, expect, it } from "vitest";
import { assertRange } from "@/app/api/hitl/params";
import { cronScheduleError } from "@/lib/audit";
import { CreateDataSourceInput } from "@/lib/datasources/contract";
import { DomainError, errors } from "@/lib/errors";

// The messages people read when a form is refused (a review payload's: lib/hitl/payload-words.test.ts): each names the field and says what to fix,
// while the error keeps its documented shape (code VALIDATION_FAILED / PAYLOAD_INVALID, details).

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError");
}

describe("a refused connection string", () => {
  it("leads with what is wrong with it, and keeps the field in details", () => {
    const parsed = CreateDataSourceInput.safeParse({
      name: "Sales",
      kind: "postgres",
      connectionString: "mysql://u:p@db.example.com/sales",
      allowedSchemas: ["public"],
    });
    expect(parsed.success).toBe(false);
    const error = errors.validation(parsed.error?.issues ?? []);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe("A postgres connection string starts with postgres://");
    expect(error.details).toEqual([
      { path: "connectionString", message: "A postgres connection string starts with postgres://" },
    ]);
  });

  it("keeps the general sentence when only built-in checks failed", () => {
    const parsed = CreateDataSourceInput.safeParse({ name: "", kind: "postgres" });
    const error = errors.validation(parsed.error?.issues ?? []);
    expect(error.message).toBe("The request does not match the expected shape.");
    expect((error.details as { path: string }[]).map((d) => d.path)).toContain("name");
  });
});

describe("a range whose start is after its end", () => {
  it("says which dates cross, under the start's field", () => {
    const error = thrown(() => assertRange("from", Date.parse("2026-03-02"), Date.parse("2026-03-01")));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe("The from date is after the to date: pick a start on or before the end.");
    expect(error.details).toEqual([{ path: "from", message: error.message }]);
    expect(thrown(() => assertRange("decided_from", 2, 1)).message).toContain(
      "decided-from date is after the decided-to date",
    );
  });

  it("accepts a range in order, and one open end", () => {
    expect(() => assertRange("from", 1, 2)).not.toThrow();
    expect(() => assertRange("from", 1, 1)).not.toThrow();
    expect(() => assertRange("from", 5, undefined)).not.toThrow();
  });
});

describe("a cleanup schedule", () => {
  it("accepts a five-field cron expression", () => {
    expect(cronScheduleError("0 3 * * *")).toBeNull();
  });

  it("says how many fields a schedule has, without croner's wording", () => {
    const message = cronScheduleError("every night") ?? "";
    expect(message).not.toMatch(/CronPattern|configuration format/);
    expect(message).toContain("“every night” is not a schedule");
    expect(message).toContain("five fields");
    expect(message).toContain("0 3 * * *");
  });

  it("names the field with a value out of range, and what it takes", () => {
    expect(cronScheduleError("0 25 * * *")).toMatch(/^In “0 25 \* \* \*”, 25 is not a valid hour \(use 0–23\)/);
    expect(cronScheduleError("61 3 * * *")).toMatch(/61 is not a valid minute \(use 0–59\)/);
    expect(cronScheduleError("0 3 * * 9")).toMatch(/9 is not a valid day of week/);
    expect(cronScheduleError("x 3 * * *")).toMatch(/x is not a valid minute/);
  });

  it("says when a schedule never comes round", () => {
    expect(cronScheduleError("0 3 31 2 *")).toContain("never comes round");
  });
});
