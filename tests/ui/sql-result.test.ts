import { describe, expect, it } from "vitest";
import { sqlResultOf } from "@/components/chat/message-parts";
import { pageWindow, rowsLabel } from "@/components/chat/paging";
import { cellView, formatNumber, isNumericColumn, tableColumns } from "@/components/chat/sql-cells";
import { chartBars, chartSummary } from "@/components/chat/sql-chart-data";
import { csvFilename, toCsv } from "@/components/chat/sql-csv";
import type { ChatMessage } from "@/lib/chat/contract";
import type { SqlResultPart } from "@/lib/runs/contract";

const result = (over: Partial<SqlResultPart> = {}): SqlResultPart => ({
  sql: "SELECT country, COUNT(*) AS customers FROM customer GROUP BY country",
  columns: ["country", "customers"],
  rows: [
    ["USA", 13],
    ["Canada", 8],
  ],
  truncated: false,
  source: { id: "demo", name: "Demo warehouse" },
  labelColumns: ["country"],
  valueColumn: "customers",
  chart: { x: "country", y: "customers" },
  followups: [],
  ...over,
});

describe("CSV of a result", () => {
  it("writes a header line and CRLF after every record", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          [1, "x"],
          [null, true],
        ],
      ),
    ).toBe("a,b\r\n1,x\r\n,true\r\n");
  });

  it("quotes fields with a comma, a quote or a line break, doubling the quotes", () => {
    expect(toCsv(["name"], [["Smith, J."], ['The "Best" Shop'], ["two\nlines"], ["cr\rhere"]])).toBe(
      'name\r\n"Smith, J."\r\n"The ""Best"" Shop"\r\n"two\nlines"\r\n"cr\rhere"\r\n',
    );
    expect(toCsv(['say "hi"', "plain"], [])).toBe('"say ""hi""",plain\r\n');
  });

  it("keeps a spreadsheet from running text as a formula, but not figures sent as text", () => {
    expect(toCsv(["v"], [['=HYPERLINK("x")'], ["+1+1"], ["@SUM(A1)"], ["-12.5"], [-3], ["-"]])).toBe(
      'v\r\n"\'=HYPERLINK(""x"")"\r\n"\'+1+1"\r\n"\'@SUM(A1)"\r\n-12.5\r\n-3\r\n"\'-"\r\n',
    );
  });

  it("names the file for the reader's day", () => {
    expect(csvFilename(new Date(2025, 2, 4, 23, 59))).toBe("vigil-query-2025-03-04.csv");
  });
});

describe("result pages", () => {
  it("slices 25 rows at a time and says which", () => {
    const first = pageWindow(830, 0, 25);
    expect(first).toEqual({ page: 0, pages: 34, start: 0, end: 25 });
    expect(rowsLabel(first, 830, "en-US")).toBe("Rows 1–25 of 830");
    const last = pageWindow(830, 33, 25);
    expect(last).toEqual({ page: 33, pages: 34, start: 825, end: 830 });
    expect(rowsLabel(last, 830, "en-US")).toBe("Rows 826–830 of 830");
    expect(rowsLabel(pageWindow(2500, 1, 25), 2500, "en-US")).toBe("Rows 26–50 of 2,500");
  });

  it("clamps a page outside the list", () => {
    expect(pageWindow(30, 7, 25)).toEqual({ page: 1, pages: 2, start: 25, end: 30 });
    expect(pageWindow(30, -1, 25).page).toBe(0);
  });

  it("counts rows that fit on one page, and an empty result", () => {
    expect(rowsLabel(pageWindow(25, 0, 25), 25, "en-US")).toBe("25 rows");
    expect(rowsLabel(pageWindow(1, 0, 25), 1, "en-US")).toBe("1 row");
    expect(pageWindow(0, 0, 25)).toEqual({ page: 0, pages: 1, start: 0, end: 0 });
    expect(rowsLabel(pageWindow(0, 0, 25), 0, "en-US")).toBe("0 rows");
  });
});

describe("cells", () => {
  it("formats figures in the locale, keeping every digit of big numbers sent as text", () => {
    expect(formatNumber(1234567.891, { locale: "en-US" })).toBe("1,234,567.89");
    expect(formatNumber(0.012345, { locale: "en-US" })).toBe("0.0123");
    expect(formatNumber("12345678901234567890", { locale: "en-US" })).toBe("12,345,678,901,234,567,890");
    expect(formatNumber("1234.5", { locale: "de-DE" })).toBe("1.234,5");
    expect(formatNumber(-42, { locale: "en-US" })).toBe("-42");
  });

  it("keeps the raw value where the text differs, and shows nothing as an em dash", () => {
    const figure = { numeric: true, code: false };
    expect(cellView(1234.5, figure, "en-US")).toEqual({ text: "1,234.5", raw: "1234.5", numeric: true, empty: false });
    expect(cellView(12, figure, "en-US")).toEqual({ text: "12", raw: undefined, numeric: true, empty: false });
    expect(cellView(null, figure)).toMatchObject({ text: "—", empty: true });
    expect(cellView(2024, { numeric: true, code: true }, "en-US").text).toBe("2024");
    expect(cellView("Lyon", { numeric: false, code: false })).toEqual({ text: "Lyon", numeric: false, empty: false });
  });

  it("reads a column as figures only when every value present is a number", () => {
    expect(isNumericColumn([[1], [null], ["2.50"]], 0)).toBe(true);
    expect(isNumericColumn([[1], ["n/a"]], 0)).toBe(false);
    expect(isNumericColumn([["00501"]], 0)).toBe(false); // a code, not a quantity
    expect(isNumericColumn([["2024-01-02"]], 0)).toBe(false);
    expect(isNumericColumn([[null]], 0)).toBe(false);
  });

  it("puts the columns that name a row first, in their order, and never formats them", () => {
    const cols = tableColumns({
      columns: ["revenue", "last_name", "customer_id", "first_name"],
      rows: [[10, "Smith", 7, "Ann"]],
      labelColumns: ["first_name", "last_name"],
    });
    expect(cols.map((c) => [c.name, c.index, c.label, c.numeric])).toEqual([
      ["first_name", 3, true, false],
      ["last_name", 1, true, false],
      ["revenue", 0, false, true],
      ["customer_id", 2, false, true],
    ]);
    expect(cols.find((c) => c.name === "customer_id")?.code).toBe(true);
    expect(cols.find((c) => c.name === "revenue")?.code).toBe(false);
  });
});

describe("the chart of an aggregate", () => {
  it("draws y over x in the query's order", () => {
    expect(chartBars(result())).toEqual({
      x: "country",
      y: "customers",
      xTitle: "Country",
      yTitle: "Customers",
      bars: [
        { label: "USA", value: 13 },
        { label: "Canada", value: 8 },
      ],
      total: 2,
    });
  });

  it("draws at most 30 bars and says how many rows there were", () => {
    const rows = Array.from({ length: 45 }, (_, i) => [`c${i}`, String(i)]);
    const bars = chartBars(result({ rows }));
    if (!bars) throw new Error("expected bars");
    expect(bars.bars).toHaveLength(30);
    expect(bars.total).toBe(45);
    expect(chartSummary(bars, String)).toBe(
      "Bar chart of customers by country, 30 bars (the first 30 of 45 rows). Largest: c29 29, c28 28, c27 27.",
    );
  });

  it("has nothing to draw without a chart, rows, its columns or any figure", () => {
    expect(chartBars(result({ chart: null }))).toBeNull();
    expect(chartBars(result({ rows: [] }))).toBeNull();
    expect(chartBars(result({ chart: { x: "country", y: "missing" } }))).toBeNull();
    expect(chartBars(result({ rows: [["USA", null]] }))).toBeNull();
    expect(
      chartBars(
        result({
          rows: [
            [null, 3],
            ["Peru", null],
          ],
        }),
      )?.bars,
    ).toEqual([
      { label: "—", value: 3 },
      { label: "Peru", value: null },
    ]);
  });
});

describe("sqlResultOf", () => {
  const message = (parts: ChatMessage["parts"]): ChatMessage => ({ id: "m1", role: "assistant", parts });

  it("takes the latest data-sql part", () => {
    const older = result({ sql: "SELECT 1" });
    const newer = result({ sql: "SELECT 2" });
    expect(
      sqlResultOf(
        message([
          { type: "data-sql", data: older },
          { type: "text", text: "Thirteen in the USA." },
          { type: "data-sql", data: newer },
        ]),
      )?.sql,
    ).toBe("SELECT 2");
  });

  it("is null for an answer without one, and skips a part with no rows to show", () => {
    expect(sqlResultOf(message([{ type: "text", text: "Hello" }]))).toBeNull();
    const broken = { sql: "SELECT 1" } as unknown as SqlResultPart;
    expect(sqlResultOf(message([{ type: "data-sql", data: broken }]))).toBeNull();
  });
});
