import { describe, expect, it } from "vitest";
import { chartBars, chartSummary } from "@/components/chat/sql-chart-data";
import type { SqlResultPart } from "@/lib/runs/contract";
import { columnTitle, columnWords, labelTitle } from "@/lib/words";

describe("result columns in words", () => {
  it("reads the analyst's aggregate names", () => {
    expect(columnTitle("sum_total")).toBe("Total");
    expect(columnTitle("sum_amount")).toBe("Total amount");
    expect(columnTitle("avg_length")).toBe("Average length");
    expect(columnTitle("max_unit_price")).toBe("Highest unit price");
    expect(columnTitle("count_film_id")).toBe("Count of film ID");
    expect(columnTitle("order_count")).toBe("Number of orders");
    expect(columnTitle("category_count")).toBe("Number of categories");
    expect(columnTitle("company_name")).toBe("Company name");
    expect(columnWords("sum_amount")).toBe("total amount");
  });

  it("names a person by their name, other labels by their columns", () => {
    expect(labelTitle(["first_name", "last_name"])).toBe("Name");
    expect(labelTitle(["FirstName", "LastName"])).toBe("Name");
    expect(labelTitle(["company_name"])).toBe("Company name");
    expect(labelTitle(["title", "release_year"])).toBe("Title, release year");
  });
});

describe("the chart of a figure per person", () => {
  const part: SqlResultPart = {
    sql: "select …",
    columns: ["first_name", "last_name", "sum_amount"],
    rows: [
      ["Mary", "Smith", "221.55"],
      ["Mary", "Jones", "190.10"],
      ["Karl", "Seal", null],
    ],
    truncated: false,
    source: { id: "s", name: "Demo warehouse" },
    labelColumns: ["first_name", "last_name"],
    valueColumn: "sum_amount",
    chart: { x: "first_name", y: "sum_amount" },
    followups: [],
  };

  it("labels each bar by full name and titles the axes in words", () => {
    const bars = chartBars(part);
    expect(bars?.bars.map((b) => b.label)).toEqual(["Mary Smith", "Mary Jones", "Karl Seal"]);
    expect(bars?.xTitle).toBe("Name");
    expect(bars?.yTitle).toBe("Total amount");
    if (!bars) throw new Error("expected bars");
    expect(chartSummary(bars, String)).toBe(
      "Bar chart of total amount by name, 3 bars. Largest: Mary Smith 221.55, Mary Jones 190.1.",
    );
  });

  it("keeps one column's label when the chart is not over the row's name", () => {
    const bars = chartBars({
      ...part,
      columns: ["rating", "avg_length"],
      rows: [
        ["PG", 112.1],
        ["R", 118.7],
      ],
      labelColumns: ["rating"],
      valueColumn: "avg_length",
      chart: { x: "rating", y: "avg_length" },
    });
    expect(bars?.bars.map((b) => b.label)).toEqual(["PG", "R"]);
    expect([bars?.xTitle, bars?.yTitle]).toEqual(["Rating", "Average length"]);
  });
});
