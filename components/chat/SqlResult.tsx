"use client";

import { BarChart3, Database, Download, Table2 } from "lucide-react";
import { useMemo } from "react";
import { Button } from "@/components/ui/Button";
import type { SqlResultPart } from "@/lib/runs/contract";
import { type ResultView, resultKey, useRememberedView } from "./result-view";
import { SqlChart } from "./SqlChart";
import { SqlCode } from "./SqlCode";
import { SqlTable } from "./SqlTable";
import { tableColumns } from "./sql-cells";
import { chartBars } from "./sql-chart-data";
import { downloadCsv } from "./sql-csv";

/**
 * The SQL analyst's result under its answer: where it ran, the rows (or a chart of an
 * aggregate), a CSV of them, and the statement itself.
 */
export function SqlResult({ result }: { result: SqlResultPart }) {
  const columns = useMemo(() => tableColumns(result), [result]);
  const bars = useMemo(() => chartBars(result), [result]);
  // An aggregate is read fastest as bars; the table is one press away, and stays chosen when
  // the result is drawn again (a new conversation re-rendered as its stored copy).
  const [view, setView] = useRememberedView(resultKey(result), bars ? "chart" : "table");
  const shown = bars ? view : "table";
  const hasRows = result.rows.length > 0;

  return (
    <section
      data-testid="sql-result"
      aria-label="Query result"
      className="min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <p className="mr-auto inline-flex min-w-0 items-center gap-1 text-slate-600 dark:text-slate-300">
          <Database aria-hidden className="h-3.5 w-3.5 shrink-0" />
          <span className="truncate">Ran on {result.source?.name || "the data source"}</span>
        </p>
        {bars && <ViewToggle view={shown} onChange={setView} />}
        {hasRows && (
          <Button
            variant="outline"
            size="xs"
            data-testid="sql-download"
            onClick={() => downloadCsv(result.columns, result.rows)}
            className="gap-1"
          >
            <Download aria-hidden className="h-3.5 w-3.5" />
            Download CSV
          </Button>
        )}
      </div>
      {shown === "chart" && bars ? <SqlChart data={bars} /> : <SqlTable result={result} columns={columns} />}
      {result.sql && <SqlCode sql={result.sql} />}
    </section>
  );
}

const VIEWS = [
  { view: "table", label: "Table", icon: Table2 },
  { view: "chart", label: "Chart", icon: BarChart3 },
] as const;

/** Table or chart: two toggle buttons, each saying whether it is the one shown. */
function ViewToggle({ view, onChange }: { view: ResultView; onChange: (view: ResultView) => void }) {
  return (
    <fieldset className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-700">
      <legend className="sr-only">Show the result as</legend>
      {VIEWS.map(({ view: option, label, icon: Icon }) => (
        <Button
          key={option}
          variant="ghost"
          size="xs"
          aria-pressed={view === option}
          onClick={() => onChange(option)}
          className="gap-1 rounded py-0.5 text-slate-600 aria-pressed:bg-brand-600 aria-pressed:text-white dark:text-slate-300 dark:aria-pressed:bg-brand-600"
        >
          <Icon aria-hidden className="h-3.5 w-3.5" />
          {label}
        </Button>
      ))}
    </fieldset>
  );
}
