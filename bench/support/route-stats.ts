import { percentile } from "./machine";

export interface RouteRow {
  route: string;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * Requests by route: the durations of those that succeeded and the reasons of those that did
 * not (an HTTP status with the error's code, a network failure, a skipped slot…).
 */
export class RouteStats {
  private readonly routes = new Map<string, { ms: number[]; errors: Map<string, number> }>();

  /** Routes listed in this order first, requested or not. */
  constructor(order: string[] = []) {
    for (const route of order) this.of(route);
  }

  private of(route: string) {
    let entry = this.routes.get(route);
    if (!entry) {
      entry = { ms: [], errors: new Map() };
      this.routes.set(route, entry);
    }
    return entry;
  }

  ok(route: string, ms: number): void {
    this.of(route).ms.push(ms);
  }

  error(route: string, reason: string): void {
    const errors = this.of(route).errors;
    errors.set(reason, (errors.get(reason) ?? 0) + 1);
  }

  rows(): RouteRow[] {
    return [...this.routes].map(([route, { ms, errors }]) => {
      const failed = [...errors.values()].reduce((a, b) => a + b, 0);
      return {
        route,
        requests: ms.length + failed,
        errors: failed,
        p50: percentile(ms, 50),
        p95: percentile(ms, 95),
        max: ms.length ? Math.max(...ms) : Number.NaN,
      };
    });
  }

  errorList(): { route: string; reason: string; count: number }[] {
    return [...this.routes].flatMap(([route, { errors }]) =>
      [...errors].map(([reason, count]) => ({ route, reason, count })),
    );
  }

  /** Errors over every route but those `except` (flows whose requests have routes of their own). */
  errorsOf(except: string[] = []): number {
    return this.rows()
      .filter((r) => !except.includes(r.route))
      .reduce((a, r) => a + r.errors, 0);
  }

  requestsOf(except: string[] = []): number {
    return this.rows()
      .filter((r) => !except.includes(r.route))
      .reduce((a, r) => a + r.requests, 0);
  }
}
