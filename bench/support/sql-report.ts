import { performance } from "node:perf_hooks";
import { fmt, percentile } from "./machine";

/** One timed operation: its samples in milliseconds and, where the issue sets one, a p95 goal. */
export interface Measure {
  name: string;
  samples: number[];
  goalMs?: number;
}

/**
 * Times a synchronous call `times` times after a warm-up (JIT). `prepare` runs before each
 * sample outside the clock (clearing a cache, building an input).
 */
export function timeSync<T>(
  name: string,
  times: number,
  run: (input: NoInfer<T>, i: number) => unknown,
  prepare: (i: number) => T,
  goalMs?: number,
): Measure {
  for (let i = 0; i < Math.min(50, times); i++) run(prepare(i), i);
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const input = prepare(i);
    const t = performance.now();
    run(input, i);
    samples.push(performance.now() - t);
  }
  return { name, samples, goalMs };
}

export function measureTable(measures: Measure[]): string[] {
  const row = (m: Measure) => {
    const p95 = percentile(m.samples, 95);
    const goal = m.goalMs === undefined ? "" : p95 < m.goalMs ? `< ${m.goalMs} — met` : `< ${m.goalMs} — NOT met`;
    return `| ${m.name} | ${m.samples.length} | ${fmt(percentile(m.samples, 50), 3)} | ${fmt(p95, 3)} | ${fmt(Math.max(...m.samples), 3)} | ${goal} |`;
  };
  return [
    "| operation | samples | p50 ms | p95 ms | max ms | goal (p95 ms) |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...measures.map(row),
  ];
}

/**
 * The SQL benchmark's report: a heading, then one section per part of the SQL analyst that has
 * been measured.
 */
export class SqlBenchReport {
  private readonly parts: string[] = [];

  constructor(heading: string[]) {
    this.parts.push(...heading, "");
  }

  section(title: string, lines: string[]): void {
    this.parts.push(`## ${title}`, "", ...lines, "");
  }

  toString(): string {
    return this.parts.join("\n");
  }
}
