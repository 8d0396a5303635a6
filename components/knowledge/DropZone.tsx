"use client";

import { type DragEvent, type RefObject, useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { ACCEPT, formatBytes, MAX_UPLOAD_BYTES } from "./api";

/**
 * The document's file: a drop zone that is also the file picker's label (so a click, Enter or a
 * drop all choose it). One file at a time; `error` is what is wrong with the choice.
 */
export function DropZone({
  file,
  error,
  disabled,
  inputRef,
  onChoose,
  onRefuse,
}: {
  file: File | null;
  error: string | null;
  disabled: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onChoose: (file: File | null) => void;
  /** A drop the zone cannot take (several files), with the reason. */
  onRefuse: (problem: string) => void;
}) {
  const id = useId();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = event.dataTransfer.files;
    if (dropped.length > 1) {
      onRefuse("Drop one file at a time.");
      return;
    }
    onChoose(dropped[0] ?? null);
  }

  function onDragOver(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? "none" : "copy";
    if (!dragging) setDragging(true);
  }

  return (
    <div>
      <input
        ref={inputRef}
        id={`${id}-file`}
        type="file"
        accept={ACCEPT}
        className="peer sr-only"
        aria-label="Document file"
        aria-describedby={`${id}-file-help`}
        aria-invalid={error ? true : undefined}
        disabled={disabled}
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
      <label
        htmlFor={`${id}-file`}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        data-testid="drop-zone"
        className={cn(
          "flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm transition peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500",
          dragging
            ? "border-brand-500 bg-brand-50 dark:bg-slate-800"
            : "border-slate-300 hover:border-brand-500 dark:border-slate-700",
        )}
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
        <span id={`${id}-file-help`} className="text-xs text-slate-500 dark:text-slate-400">
          Markdown, text, HTML or PDF, up to {formatBytes(MAX_UPLOAD_BYTES)}
        </span>
      </label>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
