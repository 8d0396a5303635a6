import { cpus, totalmem } from "node:os";

/** The machine facts every benchmark table starts with. */
export function machineRows(extra: [string, string][] = []): string {
  const rows: [string, string][] = [
    ["CPU", cpus()[0]?.model ?? "unknown"],
    ["cores", String(cpus().length)],
    ["memory", `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`],
    ["Node.js", process.version],
    ...extra,
  ];
  return ["| machine | |", "| --- | --- |", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "—");
