import { describe, expect, it } from "vitest";
import { intentOf } from "./intent";
import { ratioReadings } from "./ratio";

describe("reading a ratio question", () => {
  it("splits the two sides, and a place after the second holds for both", () => {
    expect(
      ratioReadings(
        "What is the ratio of restaurants with a rating above 4 to restaurants with a rating below 4 in New York?",
      ),
    ).toEqual([
      {
        numerator: "restaurants with a rating above 4",
        denominator: "restaurants with a rating below 4",
        shared: "in New York",
        groupBy: null,
        percent: false,
        average: false,
        said: "ratio",
      },
    ]);
    // The first side has a place of its own: the second side's is its own too.
    expect(
      ratioReadings(
        "What is the ratio of publications presented in conferences to publications published in journals?",
      )[0],
    ).toMatchObject({ numerator: "publications presented in conferences", shared: null });
  });

  it("reads 'out of all', a group, framing words and a percentage", () => {
    expect(
      ratioReadings("What is the proportion of flights with stops out of all flights for each airline code?")[0],
    ).toMatchObject({ numerator: "flights with stops", denominator: "flights", groupBy: "airline code" });
    expect(
      ratioReadings(
        "What is the ratio of restaurants with rating > 4.5 to the total number of restaurants in the database.",
      )[0],
    ).toMatchObject({ numerator: "restaurants with rating > 4.5", denominator: "restaurants", shared: null });
    expect(ratioReadings("What percentage of products are discontinued?")).toEqual([
      expect.objectContaining({ numerator: "products are discontinued", denominator: "products", percent: true }),
    ]);
  });

  it("reads 'how does the average ratio … vary across …' as an average per group", () => {
    expect(
      ratioReadings(
        "How does the average ratio of the cruising speed to the payload of an aircraft vary across different aircraft manufacturers?",
      )[0],
    ).toMatchObject({
      numerator: "cruising speed",
      denominator: "payload of an aircraft",
      groupBy: "aircraft manufacturers",
      average: true,
    });
  });

  it("keeps every split where 'to' is ambiguous, in order, and leaves other questions alone", () => {
    const readings = ratioReadings("What is the ratio of flights to ORD to all flights?");
    expect(readings.map((r) => [r.numerator, r.denominator])).toEqual([
      ["flights", "ORD to all flights"],
      ["flights to ORD", "flights"],
    ]);
    expect(ratioReadings("How many orders did each shipper deliver?")).toEqual([]);
    expect(intentOf("What is the ratio of orders to customers?")?.ratio).toHaveLength(1);
  });
});
