"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Select } from "@/components/ui/Select";
import {
  CLASSIFICATION_LABELS,
  classifyDocument,
  DATA_CLASSIFICATIONS,
  type DataClassification,
  type KnowledgeDocument,
} from "./api";

const TONES: Record<DataClassification, string> = {
  public: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  confidential: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  restricted: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  phi: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
};

/** A document's sensitivity as a chip, spelled out. */
export function ClassificationBadge({ value }: { value: DataClassification }) {
  return (
    <span
      data-testid="document-classification"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[value]}`}
    >
      {CLASSIFICATION_LABELS[value]}
    </span>
  );
}

/** The options of a sensitivity select. */
export function ClassificationOptions() {
  return DATA_CLASSIFICATIONS.map((c) => (
    <option key={c} value={c}>
      {CLASSIFICATION_LABELS[c]}
    </option>
  ));
}

/** An admin changes a document's sensitivity in place; the change applies to later retrievals. */
export function ClassificationControl({ doc }: { doc: KnowledgeDocument }) {
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState(doc.dataClassification);
  const [saving, setSaving] = useState(false);

  async function change(next: DataClassification) {
    const previous = value;
    setValue(next);
    setSaving(true);
    try {
      await classifyDocument(doc.id, next);
      toast.success(`“${doc.title}” is now ${CLASSIFICATION_LABELS[next]}.`);
      router.refresh();
    } catch (error) {
      setValue(previous);
      toast.error(error instanceof Error ? error.message : "Could not change the sensitivity.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Sensitivity
      </label>
      <Select
        id={id}
        data-testid="document-classification-select"
        className="px-2 py-1.5"
        value={value}
        disabled={saving}
        onChange={(e) => void change(e.target.value as DataClassification)}
      >
        <ClassificationOptions />
      </Select>
      {saving && <span className="text-xs text-slate-500">Saving…</span>}
    </div>
  );
}
