"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Field } from "@/components/ui/Field";
import { Input } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import { type DataClassification, type EvidenceLevel, fileProblem, MAX_TITLE_LENGTH } from "./api";
import { ClassificationOptions } from "./Classification";
import { DomainPicker } from "./DomainPicker";
import { DropZone } from "./DropZone";
import { EvidenceLevelOptions } from "./EvidenceLevel";
import { counted, useUpload } from "./use-upload";

const LAST_DOMAINS = "vigil.knowledge.lastDomains";

function rememberedDomains(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(LAST_DOMAINS) ?? "[]");
    return Array.isArray(stored) ? stored.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return [];
  }
}

function rememberDomains(domains: string[]) {
  try {
    localStorage.setItem(LAST_DOMAINS, JSON.stringify(domains));
  } catch {
    // Storage full or disabled: the next upload simply starts without a choice.
  }
}

/** Upload one document: a file (picked or dropped), its domains, an optional title. */
export function UploadForm({ domains: known }: { domains: string[] }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [title, setTitle] = useState("");
  const [classification, setClassification] = useState<DataClassification>("public");
  const [evidenceLevel, setEvidenceLevel] = useState<EvidenceLevel | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [added, setAdded] = useState<string[]>([]);
  const [domainError, setDomainError] = useState<string | null>(null);

  // Start from the domains of the last upload, so the usual upload needs no choice. The known
  // domains arrive in parts (documents, then agents): apply again as they grow, until the person
  // picks for themselves.
  const touched = useRef(false);
  useEffect(() => {
    if (touched.current) return;
    const remembered = rememberedDomains().filter((d) => known.includes(d));
    if (remembered.length > 0) setSelected(remembered);
  }, [known]);

  const { phase, busy, percent, progressText } = upload;
  const options = [...new Set([...known, ...added])].sort();

  function choose(next: File | null) {
    setFile(next);
    setFileError(next ? fileProblem(next) : null);
    upload.reset();
  }

  function toggle(domain: string, on: boolean) {
    touched.current = true;
    setSelected((current) => (on ? [...new Set([...current, domain])] : current.filter((d) => d !== domain)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!file) {
      setFileError("Choose a file to upload.");
      return;
    }
    const problem = fileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    if (selected.length === 0) {
      setDomainError("Choose at least one knowledge domain.");
      return;
    }
    const result = await upload.start({
      file,
      domains: selected,
      title,
      dataClassification: classification,
      evidenceLevel,
    });
    if (!result) return;
    rememberDomains(selected);
    if (result.created) {
      setFile(null);
      setTitle("");
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Upload a document"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      noValidate
    >
      <h2 className="text-lg font-medium">Upload a document</h2>

      <DropZone
        file={file}
        error={fileError}
        disabled={busy}
        inputRef={fileInput}
        onChoose={choose}
        onRefuse={(why) => {
          setFile(null);
          setFileError(why);
        }}
      />

      <DomainPicker
        options={options}
        selected={selected}
        onToggle={toggle}
        onAdd={(domain) => {
          setAdded((current) => [...new Set([...current, domain])]);
          toggle(domain, true);
        }}
        error={domainError}
        onError={setDomainError}
        disabled={busy}
        needed={file !== null && selected.length === 0}
      />

      <Field label="Title (optional)" className="max-w-xl">
        <Input
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={MAX_TITLE_LENGTH}
          disabled={busy}
          placeholder="Otherwise taken from the document"
        />
      </Field>

      <Field
        label="Sensitivity"
        className="max-w-xl"
        description="Every answer that reads a PHI document is recorded in the audit's PHI access view."
      >
        <Select
          value={classification}
          onChange={(e) => setClassification(e.target.value as DataClassification)}
          disabled={busy}
          data-testid="upload-classification"
        >
          <ClassificationOptions />
        </Select>
      </Field>

      <Field
        label="Evidence level (optional)"
        className="max-w-xl"
        description="1A is the strongest, 5 the weakest. An unrated document counts as the weakest in an autonomous run's evidence confidence until someone grades it."
      >
        <Select
          value={evidenceLevel ?? ""}
          onChange={(e) => setEvidenceLevel((e.target.value || null) as EvidenceLevel | null)}
          disabled={busy}
          data-testid="upload-evidence-level"
        >
          <EvidenceLevelOptions />
        </Select>
      </Field>

      {/* On a phone the form is taller than the screen: its action row stays in view at the bottom. */}
      <div className="sticky bottom-0 -mx-5 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-5 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:px-0 sm:py-0 dark:border-slate-800 dark:bg-slate-900/95 sm:dark:bg-transparent">
        <Button type="submit" disabled={busy}>
          {phase.kind === "sending" ? "Uploading…" : phase.kind === "indexing" ? "Indexing…" : "Upload"}
        </Button>
        {phase.kind === "sending" && (
          <Button
            variant="link"
            size="inline"
            className="text-slate-600 underline dark:text-slate-300"
            onClick={upload.cancel}
          >
            Cancel
          </Button>
        )}
      </div>

      {percent !== null && (
        <div className="max-w-xl space-y-1">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={progressText}
            className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div
              className={`h-full rounded-full bg-brand-600 transition-[width] ${phase.kind === "indexing" && !counted(phase.progress) ? "animate-pulse" : ""}`}
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite" data-testid="upload-progress">
            {progressText}
          </p>
        </div>
      )}

      <div aria-live="polite">
        {phase.kind === "done" &&
          (phase.created ? (
            <p
              data-testid="upload-result"
              className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
            >
              Added “{phase.document.title}” — {phase.document.chunkCount}{" "}
              {phase.document.chunkCount === 1 ? "chunk" : "chunks"} in {phase.document.domains.join(", ")}.
            </p>
          ) : (
            <p
              data-testid="upload-result"
              className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            >
              This content is already in the knowledge base as “{phase.document.title}” (
              {phase.document.domains.join(", ")}); nothing was added.
            </p>
          ))}
      </div>
      {phase.kind === "failed" && (
        <p
          role="alert"
          data-testid="upload-error"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {phase.message}
        </p>
      )}
    </form>
  );
}
