import { describe, expect, it } from "vitest";
import { applyDisplayAttributes, DisplayRegistry, displayColumnsFor, primaryLabelFor } from "@/lib/ontology";
import { DESIGN_DISPLAY_JSON } from "./design-registries";

const DESIGN = DisplayRegistry.parse(JSON.parse(DESIGN_DISPLAY_JSON));

const SCHEMAS = DisplayRegistry.parse({
  version: 1,
  tables: {
    "chinook.customer": {
      display_columns: ["customer_id", "first_name", "last_name"],
      primary_label: ["first_name", "last_name"],
    },
    "pagila.customer": { display_columns: ["customer_id", "email"], primary_label: ["email"] },
    "pagila.film": { display_columns: ["film_id", "title"], primary_label: ["title"] },
    "pagila.rental": { display_columns: ["rental_id", "rental_date"] },
  },
});

describe("displayColumnsFor", () => {
  it("gives the design's display columns, a copy each time", () => {
    const columns = displayColumnsFor(DESIGN, "asset");
    expect(columns).toEqual(["id", "name", "modelNumber", "serialNumber"]);
    columns?.push("secret");
    expect(displayColumnsFor(DESIGN, "asset")).toHaveLength(4);
  });

  it("finds a table written qualified on one side and bare on the other, without case", () => {
    expect(displayColumnsFor(DESIGN, "crewos.Asset")).toEqual(["id", "name", "modelNumber", "serialNumber"]);
    expect(displayColumnsFor(SCHEMAS, "film")).toEqual(["film_id", "title"]);
  });

  it("does not guess between schemas, and knows nothing of tables it does not describe", () => {
    expect(displayColumnsFor(SCHEMAS, "customer")).toBeNull();
    expect(displayColumnsFor(SCHEMAS, "pagila.customer")).toEqual(["customer_id", "email"]);
    expect(displayColumnsFor(DESIGN, "inspection")).toBeNull();
    expect(displayColumnsFor(DESIGN, "constructor")).toBeNull();
    expect(displayColumnsFor(DESIGN, "__proto__")).toBeNull();
  });
});

describe("primaryLabelFor", () => {
  it("joins the label columns: the design's John Doe and Crane #42", () => {
    expect(primaryLabelFor(DESIGN, "employee", { id: 12345, firstName: "John", lastName: "Doe" })).toBe("John Doe");
    expect(primaryLabelFor(DESIGN, "asset", { id: 42, name: "Crane #42", modelNumber: "CAT-320" })).toBe("Crane #42");
  });

  it("reads columns whatever case the driver returned them in, and leaves out empty parts", () => {
    expect(primaryLabelFor(DESIGN, "employee", { FIRSTNAME: " Ada ", lastname: null })).toBe("Ada");
    expect(primaryLabelFor(DESIGN, "employee", { firstName: "", lastName: undefined })).toBeNull();
    expect(primaryLabelFor(SCHEMAS, "chinook.customer", { first_name: "Luís", last_name: "Gonçalves" })).toBe(
      "Luís Gonçalves",
    );
  });

  it("prints numbers and dates, not objects", () => {
    const registry = DisplayRegistry.parse({
      version: 1,
      tables: {
        orders: {
          display_columns: ["order_id", "order_date", "meta"],
          primary_label: ["order_id", "order_date", "meta"],
        },
      },
    });
    const row = { order_id: 10248, order_date: new Date("1996-07-04T00:00:00Z"), meta: { a: 1 } };
    expect(primaryLabelFor(registry, "orders", row)).toBe("10248 1996-07-04T00:00:00.000Z");
  });

  it("has no label for a table without one or not described", () => {
    expect(primaryLabelFor(SCHEMAS, "pagila.rental", { rental_id: 1 })).toBeNull();
    expect(primaryLabelFor(DESIGN, "inspection", { name: "x" })).toBeNull();
  });
});

describe("applyDisplayAttributes", () => {
  it("turns SELECT * (or nothing) into the display columns, as the design's crane query does", () => {
    expect(applyDisplayAttributes(DESIGN, ["*"], "asset")).toEqual(["id", "name", "modelNumber", "serialNumber"]);
    expect(applyDisplayAttributes(DESIGN, ["asset.*"], "asset")).toEqual(["id", "name", "modelNumber", "serialNumber"]);
    expect(applyDisplayAttributes(DESIGN, [], "asset")).toEqual(["id", "name", "modelNumber", "serialNumber"]);
  });

  it("keeps an explicit selection and adds the label columns it lacks", () => {
    expect(applyDisplayAttributes(DESIGN, ["email"], "employee")).toEqual(["email", "firstName", "lastName"]);
    expect(applyDisplayAttributes(DESIGN, ["employee.firstName", "email"], "employee")).toEqual([
      "employee.firstName",
      "email",
      "lastName",
    ]);
    expect(applyDisplayAttributes(SCHEMAS, ["rental_date"], "pagila.rental")).toEqual(["rental_date"]);
  });

  it("leaves a table it does not describe as selected", () => {
    expect(applyDisplayAttributes(DESIGN, ["*"], "inspection")).toEqual(["*"]);
  });
});
