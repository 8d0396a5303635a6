import { DomainError, errors } from "@/lib/errors";
import { parseBody, unstorableText } from "@/lib/http";
import {
  DATA_CLASSIFICATIONS,
  type DataClassification,
  DOCX_MEDIA_TYPE,
  type DocumentInput,
  DocumentJson,
  EVIDENCE_LEVELS,
  type EvidenceLevel,
  KNOWLEDGE_LANGUAGES,
  type KnowledgeFormat,
  type KnowledgeLanguage,
  MAX_UPLOAD_BYTES,
} from "./contract";

// Reading a document upload from a request: multipart from the UI, JSON from programs. Both
// are size-limited while being read, and a declared Content-Length over the limit is refused
// before a byte is read.

/** Multipart framing (boundaries, part headers, the small text fields) on top of the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const EXTENSIONS: Record<string, KnowledgeFormat> = {
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  text: "text",
  html: "html",
  htm: "html",
  pdf: "pdf",
  docx: "docx",
};

const MIME_TYPES: Record<string, KnowledgeFormat> = {
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/plain": "text",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/pdf": "pdf",
  [DOCX_MEDIA_TYPE]: "docx",
};

const unsupported = () =>
  new DomainError(
    "unsupported_media",
    "UNSUPPORTED_MEDIA_TYPE",
    "Upload a Markdown (.md), text (.txt), HTML (.html), PDF (.pdf) or Word (.docx) file, or send JSON.",
  );

/** The format of an uploaded file, by extension first and declared type second. */
export function formatOfFile(name: string, type: string): KnowledgeFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension && EXTENSIONS[extension]) return EXTENSIONS[extension];
  const mime = type.split(";")[0].trim().toLowerCase();
  return MIME_TYPES[mime] ?? null;
}

/** A request body that errors once more than `limit` bytes have passed through it. */
function limitedBody(body: ReadableStream<Uint8Array>, limit: number, onExceeded: () => void) {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          onExceeded();
          controller.error(new Error("upload too large"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

async function readMultipart(req: Request): Promise<DocumentInput> {
  const limit = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;
  let exceeded = false;
  let form: FormData;
  try {
    const limited = new Request(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body ? limitedBody(req.body, limit, () => (exceeded = true)) : null,
      duplex: "half",
    } as RequestInit);
    form = await limited.formData();
  } catch {
    if (exceeded) throw errors.tooLarge(MAX_UPLOAD_BYTES);
    throw errors.invalidField("file", "The body is not a readable multipart form.");
  }
  refuseUnstorableFields(form);
  const file = form.get("file");
  if (!(file instanceof Blob)) throw errors.invalidField("file", "Attach the document as the form field `file`.");
  if (file.size > MAX_UPLOAD_BYTES) throw errors.tooLarge(MAX_UPLOAD_BYTES);
  const name = file instanceof File ? file.name : "";
  const format = formatOfFile(name, file.type);
  if (!format) throw unsupported();
  const text = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" && value.trim() ? value.trim() : undefined;
  };
  const domains = form
    .getAll("domains")
    .flatMap((v) => (typeof v === "string" ? v.split(",") : []))
    .map((d) => d.trim())
    .filter(Boolean);
  const title = text("title");
  if (title && title.length > 300) throw errors.invalidField("title", "At most 300 characters.");
  const externalId = text("externalId");
  if (externalId && externalId.length > 300) throw errors.invalidField("externalId", "At most 300 characters.");
  const classification = text("data_classification");
  if (classification && !(DATA_CLASSIFICATIONS as readonly string[]).includes(classification)) {
    throw errors.invalidField("data_classification", `One of ${DATA_CLASSIFICATIONS.join(", ")}.`);
  }
  const evidenceLevel = text("evidence_level");
  if (evidenceLevel && !(EVIDENCE_LEVELS as readonly string[]).includes(evidenceLevel)) {
    throw errors.invalidField("evidence_level", `One of ${EVIDENCE_LEVELS.join(", ")}; leave it out for unrated.`);
  }
  const language = text("language");
  if (language && !(KNOWLEDGE_LANGUAGES as readonly string[]).includes(language)) {
    throw errors.invalidField("language", `One of ${KNOWLEDGE_LANGUAGES.join(", ")}; leave it out to detect it.`);
  }
  return {
    format,
    language: language as KnowledgeLanguage | undefined,
    content: new Uint8Array(await file.arrayBuffer()),
    domains,
    title,
    externalId,
    fileName: name || undefined,
    dataClassification: classification as DataClassification | undefined,
    evidenceLevel: (evidenceLevel as EvidenceLevel | undefined) ?? null,
  };
}

/**
 * Every field name, text value and file name of the form must be storable text (no NUL, which
 * PostgreSQL refuses mid-write): the JSON reader checks its bodies the same way.
 */
function refuseUnstorableFields(form: FormData): void {
  for (const [key, value] of form) {
    const keyProblem = unstorableText(key);
    if (keyProblem) throw errors.invalidField("form", `Field names: ${keyProblem}`);
    const text = typeof value === "string" ? value : value.name;
    const problem = unstorableText(text);
    if (problem) throw errors.invalidField(typeof value === "string" ? key : `${key}.filename`, problem);
  }
}

/** The document in a POST: a multipart upload (`file`, `domains`, `title`?) or JSON. */
export async function readDocumentUpload(req: Request): Promise<DocumentInput> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  const contentType = (req.headers.get("content-type") ?? "").toLowerCase();
  if (contentType.startsWith("multipart/form-data")) {
    if (declared > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD) throw errors.tooLarge(MAX_UPLOAD_BYTES);
    return readMultipart(req);
  }
  if (contentType.includes("json")) {
    // JSON escapes can make the body longer than the text it carries; the limit is on the body.
    const body = await parseBody(req, DocumentJson, MAX_UPLOAD_BYTES);
    return {
      title: body.title,
      format: body.format,
      content: body.text,
      domains: body.domains,
      externalId: body.externalId,
      language: body.language,
      dataClassification: body.data_classification,
      evidenceLevel: body.evidence_level ?? null,
    };
  }
  throw unsupported();
}
