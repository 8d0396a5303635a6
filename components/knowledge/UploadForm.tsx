"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import {
  ACCEPT,
  checkDomain,
  type DataClassification,
  DOCUMENTS_KEY,
  type EvidenceLevel,
  fileProblem,
  formatBytes,
  type IngestProgress,
  type KnowledgeDocument,
  MAX_DOMAINS_PER_DOCUMENT,
  MAX_TITLE_LENGTH,
  MAX_UPLOAD_BYTES,
  type UploadHandle,
  uploadDocument,
} from "./api";
import { ClassificationOptions, selectClass } from "./Classification";
import { EvidenceLevelOptions } from "./EvidenceLevel";

const inputClass =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";

type Phase =
  | { kind: "idle" }
  | { kind: "sending"; fraction: number }
  /** Sent; the server extracts and indexes it (`progress` as it reports it). */
  | { kind: "indexing"; progress: IngestProgress | null }
  | { kind: "done"; document: KnowledgeDocument; created: boolean }
  | { kind: "failed"; message: string };

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
  const queryClient = useQueryClient();
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<UploadHandle | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [title, setTitle] = useState("");
  const [classification, setClassification] = useState<DataClassification>("public");
  const [evidenceLevel, setEvidenceLevel] = useState<EvidenceLevel | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [added, setAdded] = useState<string[]>([]);
  const [newDomain, setNewDomain] = useState("");
  const [domainError, setDomainError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });

  // An upload still running when the page goes away is cancelled.
  useEffect(() => () => upload.current?.abort(), []);

  // Start from the domains of the last upload, so the usual upload needs no choice. The known
  // domains arrive in parts (documents, then agents): apply again as they grow, until the person
  // picks for themselves.
  const touched = useRef(false);
  useEffect(() => {
    if (touched.current) return;
    const remembered = rememberedDomains().filter((d) => known.includes(d));
    if (remembered.length > 0) setSelected(remembered);
  }, [known]);

  const busy = phase.kind === "sending" || phase.kind === "indexing";
  const options = [...new Set([...known, ...added])].sort();

  function choose(next: File | null) {
    setFile(next);
    setFileError(next ? fileProblem(next) : null);
    if (phase.kind !== "sending" && phase.kind !== "indexing") setPhase({ kind: "idle" });
  }

  function toggle(domain: string, on: boolean) {
    touched.current = true;
    setSelected((current) => (on ? [...new Set([...current, domain])] : current.filter((d) => d !== domain)));
  }

  function addDomain() {
    const checked = checkDomain(newDomain);
    if ("problem" in checked) {
      setDomainError(checked.problem);
      return;
    }
    if (!selected.includes(checked.domain) && selected.length >= MAX_DOMAINS_PER_DOCUMENT) {
      setDomainError(`A document belongs to at most ${MAX_DOMAINS_PER_DOCUMENT} domains.`);
      return;
    }
    setAdded((current) => [...new Set([...current, checked.domain])]);
    toggle(checked.domain, true);
    setNewDomain("");
    setDomainError(null);
  }

  function onDomainKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      addDomain();
    }
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    const dropped = event.dataTransfer.files;
    if (dropped.length > 1) {
      setFile(null);
      setFileError("Drop one file at a time.");
      return;
    }
    choose(dropped[0] ?? null);
  }

  function onDragOver(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? "none" : "copy";
    if (!dragging) setDragging(true);
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
    setPhase({ kind: "sending", fraction: 0 });
    const handle = uploadDocument(
      { file, domains: selected, title, dataClassification: classification, evidenceLevel },
      (fraction) => setPhase(fraction >= 1 ? { kind: "indexing", progress: null } : { kind: "sending", fraction }),
      (progress) => setPhase({ kind: "indexing", progress }),
    );
    upload.current = handle;
    try {
      const result = await handle.promise;
      setPhase({ kind: "done", ...result });
      rememberDomains(selected);
      if (result.created) {
        setFile(null);
        setTitle("");
        if (fileInput.current) fileInput.current.value = "";
      }
      await queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
    } catch (error) {
      setPhase({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      upload.current = null;
    }
  }

  const percent =
    phase.kind === "sending"
      ? Math.round(phase.fraction * 100)
      : phase.kind === "indexing"
        ? indexedPercent(phase)
        : null;
  const progressText =
    phase.kind === "sending" ? `${percent}% sent` : phase.kind === "indexing" ? indexingText(phase.progress) : "";

  return (
    <form
      onSubmit={submit}
      aria-label="Upload a document"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      noValidate
    >
      <h2 className="text-lg font-medium">Upload a document</h2>

      <div>
        <input
          ref={fileInput}
          id={`${ids}-file`}
          type="file"
          accept={ACCEPT}
          className="peer sr-only"
          aria-label="Document file"
          aria-describedby={`${ids}-file-help`}
          disabled={busy}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
        />
        <label
          htmlFor={`${ids}-file`}
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="drop-zone"
          className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm transition peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 ${
            dragging
              ? "border-brand-500 bg-brand-50 dark:bg-slate-800"
              : "border-slate-300 hover:border-brand-500 dark:border-slate-700"
          }`}
        >
          <span className="font-medium">Document file</span>
          {file ? (
            <span data-testid="chosen-file">
              {file.name} <span className="text-slate-500 dark:text-slate-400">({formatBytes(file.size)})</span>
            </span>
          ) : (
            <span className="text-slate-600 dark:text-slate-400">
              Drop a file here, or <span className="text-brand-600 underline dark:text-brand-100">choose one</span>
            </span>
          )}
          <span id={`${ids}-file-help`} className="text-xs text-slate-500 dark:text-slate-400">
            Markdown, text, HTML or PDF, up to {formatBytes(MAX_UPLOAD_BYTES)}
          </span>
        </label>
        {fileError && (
          <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
            {fileError}
          </p>
        )}
      </div>

      <fieldset className="space-y-2" disabled={busy}>
        <legend className="text-sm font-medium">Knowledge domains</legend>
        {file && selected.length === 0 && !domainError && (
          <p data-testid="domain-needed" className="text-sm text-amber-700 dark:text-amber-300">
            Choose at least one knowledge domain for this document.
          </p>
        )}
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Agents search the domains they are given; every agent also searches <code>guide</code>.
        </p>
        {options.length > 0 ? (
          <div className="flex flex-wrap gap-2">
            {options.map((domain) => (
              <label
                key={domain}
                className="inline-flex items-center gap-1.5 rounded-full border border-slate-300 px-3 py-1 text-sm has-checked:border-brand-500 has-checked:bg-brand-50 dark:border-slate-700 dark:has-checked:bg-slate-800"
              >
                <input
                  type="checkbox"
                  checked={selected.includes(domain)}
                  onChange={(e) => {
                    toggle(domain, e.target.checked);
                    setDomainError(null);
                  }}
                  className="accent-brand-600"
                />
                {domain}
              </label>
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-500">No domains yet: add the first one below.</p>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm">
            New domain
            <input
              className={inputClass}
              value={newDomain}
              onChange={(e) => {
                setNewDomain(e.target.value);
                setDomainError(null);
              }}
              onKeyDown={onDomainKey}
              maxLength={32}
              placeholder="e.g. medical-devices"
              aria-describedby={domainError ? `${ids}-domain-error` : undefined}
              aria-invalid={domainError ? true : undefined}
            />
          </label>
          <button
            type="button"
            onClick={addDomain}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Add domain
          </button>
        </div>
        {domainError && (
          <p id={`${ids}-domain-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {domainError}
          </p>
        )}
      </fieldset>

      <label className="flex max-w-xl flex-col gap-1 text-sm">
        Title (optional)
        <input
          className={inputClass}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={MAX_TITLE_LENGTH}
          disabled={busy}
          placeholder="Otherwise taken from the document"
        />
      </label>

      <label className="flex max-w-xl flex-col gap-1 text-sm">
        Sensitivity
        <select
          className={selectClass}
          value={classification}
          onChange={(e) => setClassification(e.target.value as DataClassification)}
          disabled={busy}
          data-testid="upload-classification"
        >
          <ClassificationOptions />
        </select>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          Every answer that reads a PHI document is recorded in the audit&apos;s PHI access view.
        </span>
      </label>

      <label className="flex max-w-xl flex-col gap-1 text-sm">
        Evidence level (optional)
        <select
          className={selectClass}
          value={evidenceLevel ?? ""}
          onChange={(e) => setEvidenceLevel((e.target.value || null) as EvidenceLevel | null)}
          disabled={busy}
          data-testid="upload-evidence-level"
        >
          <EvidenceLevelOptions />
        </select>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          1A is the strongest, 5 the weakest. An unrated document counts as the weakest in an autonomous run&apos;s
          evidence confidence until someone grades it.
        </span>
      </label>

      {/* On a phone the form is taller than the screen: its action row stays in view at the bottom. */}
      <div className="sticky bottom-0 -mx-5 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-5 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:px-0 sm:py-0 dark:border-slate-800 dark:bg-slate-900/95 sm:dark:bg-transparent">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {phase.kind === "sending" ? "Uploading…" : phase.kind === "indexing" ? "Indexing…" : "Upload"}
        </button>
        {phase.kind === "sending" && (
          <button
            type="button"
            onClick={() => upload.current?.abort()}
            className="text-sm text-slate-600 underline dark:text-slate-300"
          >
            Cancel
          </button>
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

function counted(progress: IngestProgress | null): progress is Extract<IngestProgress, { phase: "indexing" }> {
  return progress?.phase === "indexing" && progress.chunksTotal > 0;
}

/** Sent counts as all of the bar until the server reports chunks; then the bar is the chunks indexed. */
function indexedPercent(phase: { progress: IngestProgress | null }): number {
  return counted(phase.progress) ? Math.round((phase.progress.chunksDone / phase.progress.chunksTotal) * 100) : 100;
}

function indexingText(progress: IngestProgress | null): string {
  if (!counted(progress)) return "Sent. Extracting and chunking…";
  const number = new Intl.NumberFormat();
  return `Sent. Indexing: ${number.format(progress.chunksDone)} of ${number.format(progress.chunksTotal)} chunks`;
}
