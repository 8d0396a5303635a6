"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Select } from "@/components/ui/Select";
import { EVIDENCE_LEVELS, type EvidenceLevel, gradeDocument, type KnowledgeDocument } from "./api";

/** The options of an evidence-level select, "unrated" first (the empty value). */
export function EvidenceLevelOptions() {
  return (
    <>
      <option value="">Unrated</option>
      {EVIDENCE_LEVELS.map((level) => (
        <option key={level} value={level}>
          Level {level}
        </option>
      ))}
    </>
  );
}

/** A document's evidence level as text: "Level 1B", or "Unrated". */
export const evidenceLevelLabel = (level: EvidenceLevel | null) => (level ? `Level ${level}` : "Unrated");

/** An admin grades a document's evidence in place; later runs weigh its passages by it. */
export function EvidenceLevelControl({ doc }: { doc: KnowledgeDocument }) {
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState<EvidenceLevel | null>(doc.evidenceLevel);
  const [saving, setSaving] = useState(false);

  async function change(next: EvidenceLevel | null) {
    const previous = value;
    setValue(next);
    setSaving(true);
    try {
      await gradeDocument(doc.id, next);
      toast.success(`“${doc.title}” is now ${evidenceLevelLabel(next).toLowerCase()}.`);
      router.refresh();
    } catch (error) {
      setValue(previous);
      toast.error(error instanceof Error ? error.message : "Could not change the evidence level.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Evidence level
      </label>
      <Select
        id={id}
        data-testid="document-evidence-level-select"
        className="px-2 py-1.5"
        value={value ?? ""}
        disabled={saving}
        onChange={(e) => void change((e.target.value || null) as EvidenceLevel | null)}
      >
        <EvidenceLevelOptions />
      </Select>
      {saving && <span className="text-xs text-slate-500">Saving…</span>}
    </div>
  );
}
