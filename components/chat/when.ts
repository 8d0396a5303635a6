// When things happened, in the chat's words: a message's time and the sidebar's date groups.
// Calendar days are the reader's own (local time); the full timestamp is always one hover away.

const DAY_MS = 86_400_000;

const sameYearDate = new Intl.DateTimeFormat("en", { month: "short", day: "numeric" });
const otherYearDate = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", year: "numeric" });
const fullFormat = new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" });

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Whole calendar days from `then` to `now` (0 the same day; DST days count as one). */
export function calendarDaysBetween(then: Date, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(then)) / DAY_MS);
}

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isFinite(date.getTime()) ? date : null;
}

/** "just now", "5 min ago", "3 h ago" today; "Mar 4" (or "Mar 4, 2024") before. */
export function messageTimeLabel(iso: string, now: Date): string {
  const then = parse(iso);
  if (!then) return "";
  if (calendarDaysBetween(then, now) <= 0) {
    const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
    if (minutes < 1) return "just now";
    if (minutes < 60) return `${minutes} min ago`;
    return `${Math.floor(minutes / 60)} h ago`;
  }
  return (then.getFullYear() === now.getFullYear() ? sameYearDate : otherYearDate).format(then);
}

/** "Tuesday, March 4, 2025 at 2:05 PM": for a tooltip. */
export function fullTimestamp(iso: string): string {
  const then = parse(iso);
  return then ? fullFormat.format(then) : "";
}

export const ACTIVITY_GROUPS = ["Today", "Yesterday", "Previous 7 days", "Previous 30 days", "Older"] as const;
export type ActivityGroup = (typeof ACTIVITY_GROUPS)[number];

export function activityGroupOf(iso: string, now: Date): ActivityGroup {
  const then = parse(iso);
  if (!then) return "Older";
  const days = calendarDaysBetween(then, now);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  return "Older";
}

/**
 * Items grouped by when they were last active, in the order of ACTIVITY_GROUPS, each group in
 * the items' own order; empty groups are left out.
 */
export function groupByActivity<T extends { updatedAt: string }>(
  items: T[],
  now: Date,
): { group: ActivityGroup; items: T[] }[] {
  const groups = new Map<ActivityGroup, T[]>();
  for (const item of items) {
    const group = activityGroupOf(item.updatedAt, now);
    const list = groups.get(group);
    if (list) list.push(item);
    else groups.set(group, [item]);
  }
  return ACTIVITY_GROUPS.filter((g) => groups.has(g)).map((group) => ({ group, items: groups.get(group) ?? [] }));
}
