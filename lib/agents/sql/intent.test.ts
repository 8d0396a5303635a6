import { describe, expect, it } from "vitest";
import { followUpQuestion, intentOf } from "./intent";

describe("the offline engine's reading of a data question", () => {
  it("reads a count per a dimension in a year", () => {
    expect(intentOf("How many orders did each shipper deliver in 1997?")).toMatchObject({
      shape: "count",
      subject: "orders",
      groupBy: "shipper",
      year: 1997,
      conditions: [],
    });
    expect(intentOf("Number of tracks per genre")).toMatchObject({
      shape: "count",
      subject: "tracks",
      groupBy: "genre",
    });
    expect(intentOf("How many customers are there?")).toMatchObject({
      shape: "count",
      subject: "customers",
      groupBy: null,
    });
  });

  it("reads a top-N by a measure, highest or lowest first", () => {
    expect(intentOf("Top 5 customers by total invoice amount")).toMatchObject({
      shape: "top",
      subject: "customers",
      limit: 5,
      descending: true,
      measure: { aggregate: "sum", words: "invoice amount" },
    });
    expect(intentOf("bottom 3 products by unit price")).toMatchObject({
      limit: 3,
      descending: false,
      subject: "products",
    });
  });

  it("reads a measure per a dimension", () => {
    expect(intentOf("Average film length by rating")).toMatchObject({
      shape: "measure",
      measure: { aggregate: "avg", words: "film length" },
      groupBy: "rating",
    });
    expect(intentOf("What is the total freight per shipper in 1996?")).toMatchObject({
      measure: { aggregate: "sum", words: "freight" },
      groupBy: "shipper",
      year: 1996,
    });
  });

  it("reads 'named' as a filter on a name, and a date filter off the question", () => {
    expect(
      intentOf("Return the number of payments made on weekends to the vendor named 'Utility Company'"),
    ).toMatchObject({
      shape: "count",
      subject: "payments",
      conditions: [{ column: "vendor name", value: "Utility Company" }],
      dateFilter: { kind: "weekend" },
    });
    expect(intentOf("What is the monthly average transaction price in the 1st quarter of 2023?")).toMatchObject({
      shape: "measure",
      measure: { aggregate: "avg", words: "transaction price" },
      period: { period: "month", word: "monthly" },
      dateFilter: { kind: "range", from: "2023-01-01", to: "2023-04-01" },
      year: null,
    });
  });

  it("reads a list with filters on named columns, quoted or not", () => {
    expect(intentOf("List customers whose country is Germany")).toMatchObject({
      shape: "list",
      subject: "customers",
      conditions: [{ column: "country", value: "Germany" }],
    });
    expect(intentOf("Show tracks where composer = 'AC/DC'")).toMatchObject({
      subject: "tracks",
      conditions: [{ column: "composer", value: "AC/DC" }],
    });
  });

  it("asks the previous question again for a follow-up that changes its year", () => {
    const first = intentOf("How many orders did each shipper deliver in 1997?");
    expect(intentOf("and in 1998?", first)).toMatchObject({
      shape: "count",
      subject: "orders",
      groupBy: "shipper",
      year: 1998,
    });
    expect(intentOf("and in 1998?", null)).toBeNull();
  });

  it("has no intent for what is not a data question it can shape", () => {
    expect(intentOf("Why is the sky blue?")).toBeNull();
    expect(intentOf("Hello")).toBeNull();
  });

  it("reads a ranked count: the N with the most or the fewest", () => {
    expect(intentOf("Which 3 countries have the most customers?")).toMatchObject({
      shape: "count",
      subject: "customers",
      groupBy: "countries",
      limit: 3,
      descending: true,
    });
    expect(intentOf("Which genre has the fewest tracks?")).toMatchObject({
      shape: "count",
      subject: "tracks",
      groupBy: "genre",
      limit: 1,
      descending: false,
    });
  });

  it("reads one figure over every row, a month of a year, and a count per year", () => {
    expect(intentOf("What is the total freight of all orders?")).toMatchObject({
      shape: "measure",
      subject: "orders",
      groupBy: null,
      measure: { aggregate: "sum", words: "freight" },
    });
    expect(intentOf("What is the highest product unit price?")).toMatchObject({
      shape: "measure",
      measure: { aggregate: "max", words: "product unit price" },
    });
    expect(intentOf("How many orders were placed in March 1998?")).toMatchObject({ year: 1998, month: 3 });
    expect(intentOf("Number of orders per year")).toMatchObject({ shape: "count", groupBy: "year" });
  });

  it("reads comparisons with a number and a count kept where it passes", () => {
    expect(intentOf("Which products have a unit price between 20 and 30?")?.conditions).toEqual([
      { column: "unit price", value: "20", value2: "30", op: "between" },
    ]);
    expect(intentOf("List restaurants with a rating above 4.5")?.conditions).toEqual([
      { column: "rating", value: "4.5", op: ">" },
    ]);
    expect(intentOf("Which countries have more than 5 customers?")).toMatchObject({
      shape: "count",
      subject: "customers",
      groupBy: "countries",
      having: { op: ">", value: 5 },
    });
    expect(intentOf("What are the names of the restaurants in Berlin?")).toMatchObject({
      shape: "list",
      subject: "restaurants",
    });
  });
});

describe("followUpQuestion", () => {
  const prior = (q: string) => intentOf(q) as NonNullable<ReturnType<typeof intentOf>>;
  it("puts a bare year, a value or an aggregate into the previous question", () => {
    const freight = "What is the total freight per shipper in 1997?";
    expect(followUpQuestion("What about 1996?", freight, prior(freight))).toBe(
      "What is the total freight per shipper in 1996?",
    );
    expect(followUpQuestion("and in 1998", freight, prior(freight))).toBe(
      "What is the total freight per shipper in 1998?",
    );
    const rock = "How many tracks are there in the Rock genre?";
    // A value the data held in the previous question (found by the planner, not by its words).
    expect(followUpQuestion("What about Jazz?", rock, prior(rock), ["Rock"])).toBe(
      "How many tracks are there in the Jazz genre?",
    );
    expect(followUpQuestion("What about Jazz?", rock, prior(rock), [])).toBeNull();
    expect(followUpQuestion("what about how many albums there are?", rock, prior(rock), ["Rock"])).toBeNull();
    expect(followUpQuestion("what about the average?", freight, prior(freight))).toBe(
      "What is the average freight per shipper in 1997?",
    );
    const noYear = "How many orders did each shipper deliver?";
    expect(followUpQuestion("how about 1996?", noYear, prior(noYear))).toBe(
      "How many orders did each shipper deliver in 1996?",
    );
    const germans = "List customers whose country is Germany";
    expect(followUpQuestion("and only Brazil?", germans, prior(germans))).toBe(
      "List customers whose country is Brazil?",
    );
  });
  it("leaves a question of its own, or a change with no place in the previous one, alone", () => {
    const germans = "List customers whose country is Germany";
    expect(followUpQuestion("And how many orders are there?", germans, prior(germans))).toBeNull();
    expect(followUpQuestion("How many orders are there?", germans, prior(germans))).toBeNull();
    const tracks = "How many tracks are there?";
    expect(followUpQuestion("what about Jazz?", tracks, prior(tracks))).toBeNull();
  });
});
