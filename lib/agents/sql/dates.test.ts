import { describe, expect, it } from "vitest";
import { dateFilterOf, dateFilterSql, dateSql, dateVerbs, isDateColumn, periodOf, periodSql } from "./dates";

describe("dates in questions and in the data", () => {
  it("reads a number column as a date only where its description says epoch time", () => {
    const epoch = { name: "departure_time", data_type: "bigint", comment: "Epoch timestamp for departure time" };
    const millis = { name: "sbdpepochms", data_type: "bigint", comment: "epoch milliseconds for timestamp" };
    const plain = { name: "time_elapsed", data_type: "bigint", comment: "Total time elapsed in seconds" };
    expect([epoch, millis, plain].map(isDateColumn)).toEqual([true, true, false]);
    expect(isDateColumn({ name: "order_date", data_type: "date" })).toBe(true);
    expect(isDateColumn({ name: "opens", data_type: "time without time zone" })).toBe(false);
    expect(dateSql("postgres", epoch, "t.d")).toBe("to_timestamp(t.d)");
    expect(dateSql("postgres", millis, "t.d")).toBe("to_timestamp(t.d / 1000.0)");
    expect(dateSql("mysql", epoch, "t.d")).toBe("from_unixtime(t.d)");
    expect(dateSql("postgres", { name: "order_date", data_type: "date" }, "t.d")).toBe("t.d");
  });

  it("reads a day, a quarter, a span back from today and weekends, and takes them off the question", () => {
    expect(dateFilterOf("How many sell transactions on 2023-04-01 by customer")).toMatchObject({
      rest: "How many sell transactions by customer",
      filter: { kind: "range", from: "2023-04-01", to: "2023-04-02" },
    });
    expect(dateFilterOf("average price in the 1st quarter of 2023").filter).toMatchObject({
      from: "2023-01-01",
      to: "2023-04-01",
    });
    expect(dateFilterOf("sales in Q4 2022").filter).toMatchObject({ from: "2022-10-01", to: "2023-01-01" });
    expect(dateFilterOf("orders in the past 2 weeks").filter).toMatchObject({ kind: "past", days: 14 });
    expect(dateFilterOf("payments made on weekends").filter).toMatchObject({ kind: "weekend" });
    // Not a day of the calendar: no filter, the question is left as it was.
    expect(dateFilterOf("orders on 2023-02-30")).toEqual({ rest: "orders on 2023-02-30", filter: null });
    expect(dateFilterOf("orders shipped to Germany").filter).toBeNull();
  });

  it("reads one-sided bounds and a span between two written days, both days included", () => {
    expect(dateFilterOf("employees hired after 1993").filter).toMatchObject({ from: "1994-01-01" });
    expect(dateFilterOf("employees hired after 1993").filter).not.toHaveProperty("to");
    expect(dateFilterOf("orders since 1997").filter).toMatchObject({ from: "1997-01-01" });
    expect(dateFilterOf("orders before 2023-04-01").filter).toMatchObject({ to: "2023-04-01" });
    expect(dateFilterOf("rentals made between 1 May 2022 and 31 May 2022")).toMatchObject({
      rest: "rentals made",
      filter: { from: "2022-05-01", to: "2022-06-01" },
    });
    expect(dateFilterOf("between May 31, 2022 and May 1, 2022").filter).toBeNull();
  });

  it("knows a date column by the verb a question uses for it", () => {
    expect(dateVerbs("hire_date", ["employee", "hired", "after"])).toEqual(["hired"]);
    expect(dateVerbs("sbCustJoinDate", ["joined"])).toEqual(["joined"]);
    expect(dateVerbs("join_date", ["user", "joined"])).toEqual(["joined"]);
    expect(dateVerbs("ship_date", ["shipped"])).toEqual(["shipped"]);
    expect(dateVerbs("order_date", ["placed", "dated"])).toEqual([]);
  });

  it("writes each filter and period in the dialect", () => {
    const weekend = dateFilterOf("on weekends").filter;
    if (!weekend) throw new Error("no filter");
    expect(dateFilterSql("postgres", weekend, "d")).toBe("extract(dow from d) in (0, 6)");
    expect(dateFilterSql("mysql", weekend, "d")).toBe("dayofweek(d) in (1, 7)");
    const past = dateFilterOf("in the past 7 days").filter;
    if (!past) throw new Error("no filter");
    expect(dateFilterSql("postgres", past, "d")).toBe(
      "d >= current_date - interval '7 days' and d < current_date + interval '1 day'",
    );
    expect(periodOf("the monthly average price")).toEqual({
      rest: "the average price",
      period: "month",
      word: "monthly",
    });
    expect(periodSql("postgres", "quarter", "d")).toBe("date_trunc('quarter', d)");
  });
});
