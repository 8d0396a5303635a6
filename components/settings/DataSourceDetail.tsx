"use client";

import { type KeyboardEvent, useRef, useState } from "react";
import type { DataSourceKind } from "@/lib/datasources/contract";
import { JoinGraphOverridesEditor } from "./JoinGraphOverridesEditor";
import { JoinGraphView } from "./JoinGraphView";
import { RegistryEditor } from "./RegistryEditor";

const TABS = [
  { id: "graph", label: "Join graph" },
  { id: "overrides", label: "Overrides" },
  { id: "registries", label: "Registries" },
] as const;
type Tab = (typeof TABS)[number]["id"];

/** A source's SQL analyst settings in three tabs (arrow keys move between them). */
export function DataSourceDetail({
  sourceId,
  kind,
  schemas,
}: {
  sourceId: string;
  kind: DataSourceKind;
  schemas: string[];
}) {
  const [tab, setTab] = useState<Tab>("graph");
  /** The graph version shown; null for the current one. */
  const [version, setVersion] = useState<number | null>(null);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKey(event: KeyboardEvent) {
    const at = TABS.findIndex((t) => t.id === tab);
    const next =
      event.key === "ArrowRight"
        ? (at + 1) % TABS.length
        : event.key === "ArrowLeft"
          ? (at - 1 + TABS.length) % TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next].id);
    refs.current[TABS[next].id]?.focus();
  }

  return (
    <div className="min-w-0">
      <div
        role="tablist"
        aria-label="Data source settings"
        tabIndex={-1}
        onKeyDown={onKey}
        className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm whitespace-nowrap ${
              tab === t.id
                ? "border-brand-600 font-medium text-brand-700 dark:text-brand-100"
                : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="min-w-0">
        {tab === "graph" && (
          <JoinGraphView
            sourceId={sourceId}
            warehouse={kind === "warehouse"}
            version={version}
            onCurrent={() => setVersion(null)}
          />
        )}
        {tab === "overrides" && (
          <JoinGraphOverridesEditor
            sourceId={sourceId}
            onView={(v) => {
              setVersion(v);
              setTab("graph");
            }}
          />
        )}
        {tab === "registries" && <RegistryEditor sourceId={sourceId} schemas={schemas} />}
      </div>
    </div>
  );
}
