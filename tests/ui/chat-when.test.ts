import { describe, expect, it } from "vitest";
import { activityGroupOf, calendarDaysBetween, groupByActivity, messageTimeLabel } from "@/components/chat/when";

// Local times throughout: "today" and "yesterday" are the reader's calendar days.
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);
const iso = (date: Date) => date.toISOString();

describe("message times", () => {
  const now = at(2025, 3, 14, 15, 30);

  it("reads relative today and as a date before", () => {
    expect(messageTimeLabel(iso(at(2025, 3, 14, 15, 29)), now)).toBe("1 min ago");
    expect(messageTimeLabel(iso(new Date(now.getTime() - 20_000)), now)).toBe("just now");
    expect(messageTimeLabel(iso(at(2025, 3, 14, 15, 1)), now)).toBe("29 min ago");
    expect(messageTimeLabel(iso(at(2025, 3, 14, 9, 10)), now)).toBe("6 h ago");
    // Just after midnight is still today; just before is not.
    expect(messageTimeLabel(iso(at(2025, 3, 14, 0, 5)), now)).toBe("15 h ago");
    expect(messageTimeLabel(iso(at(2025, 3, 13, 23, 55)), now)).toBe("Mar 13");
    expect(messageTimeLabel(iso(at(2024, 12, 31)), now)).toBe("Dec 31, 2024");
  });

  it("shows nothing for a time it cannot read", () => {
    expect(messageTimeLabel("not a date", now)).toBe("");
  });
});

describe("sidebar date groups", () => {
  const now = at(2025, 3, 14, 8);

  it("counts calendar days, not 24-hour spans", () => {
    expect(calendarDaysBetween(at(2025, 3, 13, 23, 59), at(2025, 3, 14, 0, 1))).toBe(1);
    expect(calendarDaysBetween(at(2025, 3, 14, 0, 0), at(2025, 3, 14, 23, 59))).toBe(0);
    // Across a change of daylight saving time (wherever the test runs) a day is still one day.
    expect(calendarDaysBetween(at(2025, 3, 1), at(2025, 4, 1))).toBe(31);
    expect(calendarDaysBetween(at(2025, 10, 20), at(2025, 11, 10))).toBe(21);
  });

  it("files each conversation under Today, Yesterday, Previous 7 days, Previous 30 days or Older", () => {
    expect(activityGroupOf(iso(at(2025, 3, 14, 0, 1)), now)).toBe("Today");
    expect(activityGroupOf(iso(at(2025, 3, 14, 20)), now)).toBe("Today");
    expect(activityGroupOf(iso(at(2025, 3, 13, 23)), now)).toBe("Yesterday");
    expect(activityGroupOf(iso(at(2025, 3, 12)), now)).toBe("Previous 7 days");
    expect(activityGroupOf(iso(at(2025, 3, 7)), now)).toBe("Previous 7 days");
    expect(activityGroupOf(iso(at(2025, 3, 6)), now)).toBe("Previous 30 days");
    expect(activityGroupOf(iso(at(2025, 2, 12)), now)).toBe("Previous 30 days");
    expect(activityGroupOf(iso(at(2025, 2, 11)), now)).toBe("Older");
    expect(activityGroupOf("garbage", now)).toBe("Older");
  });

  it("keeps the list's order inside each group and leaves empty groups out", () => {
    const items = [
      { id: "a", updatedAt: iso(at(2025, 3, 14, 7)) },
      { id: "b", updatedAt: iso(at(2025, 3, 14, 1)) },
      { id: "c", updatedAt: iso(at(2025, 3, 10)) },
      { id: "d", updatedAt: iso(at(2025, 3, 9)) },
      { id: "e", updatedAt: iso(at(2024, 6, 1)) },
    ];
    expect(groupByActivity(items, now).map((g) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ["Today", ["a", "b"]],
      ["Previous 7 days", ["c", "d"]],
      ["Older", ["e"]],
    ]);
    expect(groupByActivity([], now)).toEqual([]);
  });
});
