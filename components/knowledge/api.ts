import { ApiError } from "@/components/ui/api";
import type { AgentCard } from "@/lib/experts/contract";
import type {
  ChunkPage,
  DocumentOverview,
  DocumentPage,
  DocumentSection,
  IngestProgress,
  KnowledgeChunk,
  KnowledgeDocument,
  SearchHit,
} from "@/lib/rag/contract";
import {
  DATA_CLASSIFICATIONS,
  type DataClassification,
  DOCX_MEDIA_TYPE,
  DOMAIN_PATTERN,
  EVIDENCE_LEVELS,
  type EvidenceLevel,
  GUIDE_DOMAIN,
  MAX_DOMAINS_PER_DOCUMENT,
  MAX_UPLOAD_BYTES,
} from "@/lib/rag/contract";

// The knowledge page's side of /api/knowledge. Types and limits come from lib/rag/contract (no
// server code reaches the bundle). Uploads go through XMLHttpRequest: fetch reports no upload
// progress.

export type {
  ChunkPage,
  DataClassification,
  DocumentOverview,
  DocumentPage,
  DocumentSection,
  EvidenceLevel,
  IngestProgress,
  KnowledgeChunk,
  KnowledgeDocument,
  SearchHit,
};
export {
  DATA_CLASSIFICATIONS,
  DOMAIN_PATTERN,
  EVIDENCE_LEVELS,
  GUIDE_DOMAIN,
  MAX_DOMAINS_PER_DOCUMENT,
  MAX_UPLOAD_BYTES,
};

/** How the knowledge pages name a document's sensitivity. */
export const CLASSIFICATION_LABELS: Record<DataClassification, string> = {
  public: "Public",
  confidential: "Confidential",
  restricted: "Restricted",
  phi: "PHI (patient data)",
};

export const DOCUMENTS_KEY = ["knowledge-documents"] as const;
export const CHUNKS_KEY = "knowledge-document-chunks";
export const CHUNK_PAGE_SIZE = 50;

export const FORMAT_LABELS: Record<KnowledgeDocument["format"], string> = {
  markdown: "Markdown",
  text: "Text",
  html: "HTML",
  pdf: "PDF",
  docx: "Word",
};

/** A document's language as the list shows it. */
export const LANGUAGE_LABELS: Record<KnowledgeDocument["language"], string> = {
  en: "English",
  de: "German",
  fr: "French",
  es: "Spanish",
  it: "Italian",
  nl: "Dutch",
  pt: "Portuguese",
  und: "Other",
};
export const DOCUMENT_PAGE_SIZE = 25;
export const MAX_TITLE_LENGTH = 300;

export interface SearchBody {
  count: number;
  retrieval: "lexical" | "hybrid";
  items: SearchHit[];
}

export interface AgentList {
  items: AgentCard[];
}

export interface UploadResult {
  document: KnowledgeDocument;
  /** False when the same content was already there: nothing was written. */
  created: boolean;
}

interface FieldIssue {
  path: string;
  message: string;
}

/** A refusal from the knowledge API, with a message a person can act on. */
export class KnowledgeApiError extends ApiError {}

const ACCEPTED_EXTENSIONS = ["md", "markdown", "txt", "text", "html", "htm", "pdf", "docx"];
const ACCEPTED_TYPES = [
  "text/markdown",
  "text/x-markdown",
  "text/plain",
  "text/html",
  "application/xhtml+xml",
  "application/pdf",
  DOCX_MEDIA_TYPE,
];

/** For the file input's `accept`. */
export const ACCEPT = [...ACCEPTED_EXTENSIONS.map((e) => `.${e}`), ...ACCEPTED_TYPES].join(",");

export const UNSUPPORTED_FILE_MESSAGE =
  "Upload a Markdown (.md), text (.txt), HTML (.html), PDF (.pdf) or Word (.docx) file.";

/** Why a file will be refused before it is sent (the server checks the same), or null. */
export function fileProblem(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) {
    return `“${file.name}” is ${formatBytes(file.size)}; uploads are limited to ${formatBytes(MAX_UPLOAD_BYTES)}.`;
  }
  if (file.size === 0) return `“${file.name}” is empty.`;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (extension && ACCEPTED_EXTENSIONS.includes(extension)) return null;
  const mime = file.type.split(";")[0].trim().toLowerCase();
  if (ACCEPTED_TYPES.includes(mime)) return null;
  return `“${file.name}” is not a supported type. ${UNSUPPORTED_FILE_MESSAGE}`;
}

/** A domain name as the API stores it, or why it is not one. */
export function checkDomain(raw: string): { domain: string } | { problem: string } {
  const domain = raw.trim().toLowerCase();
  if (!domain) return { problem: "Type a domain name." };
  if (!DOMAIN_PATTERN.test(domain)) {
    return {
      problem:
        "A domain starts with a letter and has at most 32 lower-case letters, digits, dashes or underscores (e.g. medical-devices).",
    };
  }
  return { domain };
}

function errorFromBody(status: number, body: unknown): KnowledgeApiError {
  const b = (body ?? {}) as { status?: string; code?: string; message?: string; details?: unknown };
  if (status === 404 || b.status === "not_found") {
    return new KnowledgeApiError(404, "NOT_FOUND", "This document no longer exists (it may have been deleted).");
  }
  const code = b.code ?? "HTTP_ERROR";
  if (status === 413) {
    return new KnowledgeApiError(
      413,
      code,
      `The file is too large: uploads are limited to ${formatBytes(MAX_UPLOAD_BYTES)}.`,
      b.details,
    );
  }
  if (status === 400 && code === "VALIDATION_FAILED" && Array.isArray(b.details)) {
    const issues = (b.details as FieldIssue[]).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    if (issues.length > 0) return new KnowledgeApiError(400, code, issues.join(" "), b.details);
  }
  if (status === 403) {
    return new KnowledgeApiError(403, code, b.message ?? "Only an admin can change the knowledge base.", b.details);
  }
  return new KnowledgeApiError(status, code, b.message ?? `Request failed (${status}).`, b.details);
}

/** JSON from the knowledge API; refusals throw a KnowledgeApiError carrying the server's message. */
export async function knowledgeFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, credentials: "same-origin" });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw errorFromBody(res.status, body);
  return body as T;
}

export interface UploadInput {
  file: File;
  domains: string[];
  title?: string;
  dataClassification?: DataClassification;
  /** The document's evidence level; unrated when absent. */
  evidenceLevel?: EvidenceLevel | null;
}

export interface UploadHandle {
  promise: Promise<UploadResult>;
  abort: () => void;
}

interface ServerEvent {
  event: string;
  data: unknown;
}

/** The complete server-sent events in `text` from `from` on, and where the next one starts. */
function readEvents(text: string, from: number): { events: ServerEvent[]; next: number } {
  const events: ServerEvent[] = [];
  let next = from;
  for (let end = text.indexOf("\n\n", next); end !== -1; end = text.indexOf("\n\n", next)) {
    const block = text.slice(next, end);
    next = end + 2;
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (data === undefined) continue;
    try {
      events.push({ event, data: JSON.parse(data) });
    } catch {
      // Not ours to read.
    }
  }
  return { events, next };
}

function resultOf(status: number, body: unknown): UploadResult | KnowledgeApiError {
  const result = body as { document?: KnowledgeDocument; created?: boolean };
  if (!result.document)
    return new KnowledgeApiError(status, "BAD_RESPONSE", "The server answered without the document.");
  return { document: result.document, created: result.created ?? status === 201 };
}

/**
 * Sends a document as multipart form data. `onProgress` gets the fraction of the body sent
 * (0–1); then `onServerProgress` follows the server extracting and indexing it, as the server
 * streams it (server-sent events; the outcome is the stream's last event).
 */
export function uploadDocument(
  input: UploadInput,
  onProgress: (fraction: number) => void,
  onServerProgress: (progress: IngestProgress) => void = () => {},
): UploadHandle {
  const form = new FormData();
  form.append("file", input.file, input.file.name);
  for (const domain of input.domains) form.append("domains", domain);
  if (input.title?.trim()) form.append("title", input.title.trim());
  if (input.dataClassification) form.append("data_classification", input.dataClassification);
  if (input.evidenceLevel) form.append("evidence_level", input.evidenceLevel);

  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadResult>((resolve, reject) => {
    let read = 0;
    let outcome: ServerEvent | null = null;
    const readStream = () => {
      if (!(xhr.getResponseHeader("content-type") ?? "").startsWith("text/event-stream")) return;
      const { events, next } = readEvents(xhr.responseText, read);
      read = next;
      for (const event of events) {
        if (event.event === "progress") onServerProgress(event.data as IngestProgress);
        else if (event.event === "result" || event.event === "error") outcome = event;
      }
    };
    xhr.open("POST", "/api/knowledge/documents");
    xhr.setRequestHeader("accept", "text/event-stream");
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onprogress = readStream;
    xhr.onload = () => {
      readStream();
      if (outcome) {
        const data = outcome.data as { httpStatus?: number };
        const status = data.httpStatus ?? 500;
        const settled = outcome.event === "result" ? resultOf(status, data) : errorFromBody(status, data);
        if (settled instanceof KnowledgeApiError) reject(settled);
        else resolve(settled);
        return;
      }
      if ((xhr.getResponseHeader("content-type") ?? "").startsWith("text/event-stream")) {
        reject(
          new KnowledgeApiError(xhr.status, "BAD_RESPONSE", "The server stopped before saying how the upload ended."),
        );
        return;
      }
      let body: unknown = {};
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : {};
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const settled = resultOf(xhr.status, body);
        if (settled instanceof KnowledgeApiError) reject(settled);
        else resolve(settled);
      } else {
        reject(errorFromBody(xhr.status, body));
      }
    };
    xhr.onerror = () =>
      reject(
        new KnowledgeApiError(0, "NETWORK", "The upload did not reach the server. Check the connection and try again."),
      );
    xhr.onabort = () => reject(new KnowledgeApiError(0, "ABORTED", "Upload cancelled."));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 minutes ago", "yesterday", or the date for anything older than a month. */
export function formatWhen(iso: string, now = Date.now()): string {
  const then = new Date(iso).getTime();
  const seconds = Math.round((then - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), "hour");
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return new Date(iso).toLocaleDateString();
}

/** Who added a document, as a person reads it. */
export function addedBy(createdBy: string, currentUserId: string): string {
  if (createdBy === currentUserId) return "you";
  if (createdBy === "seed") return "demo corpus";
  return createdBy.length > 14 ? `${createdBy.slice(0, 12)}…` : createdBy;
}

/** The tenant's known domains: those its documents use, its agents search, and the user guide. */
export function knownDomains(documents: KnowledgeDocument[], agents: AgentCard[]): string[] {
  const all = new Set<string>([GUIDE_DOMAIN]);
  for (const d of documents) for (const domain of d.domains) all.add(domain);
  for (const a of agents) for (const domain of a.knowledgeDomains ?? []) all.add(domain);
  return [...all].filter((d) => DOMAIN_PATTERN.test(d)).sort();
}

/** An admin grades a document's evidence (null: unrated); runs from then on weigh its passages by it. */
export function gradeDocument(id: string, evidenceLevel: EvidenceLevel | null) {
  return knowledgeFetch<{ document: KnowledgeDocument }>(`/api/knowledge/documents/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ evidence_level: evidenceLevel }),
  });
}

/** An admin sets how sensitive a document is; retrievals from then on are traced with it. */
export function classifyDocument(id: string, dataClassification: DataClassification) {
  return knowledgeFetch<{ document: KnowledgeDocument }>(`/api/knowledge/documents/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data_classification: dataClassification }),
  });
}
