import { humanize } from "./format";

// A case payload as a reviewer reads it: labelled fields, lists as lists, nested objects as
// nested fields. Anything deeper than a few levels falls back to formatted JSON.

const MAX_DEPTH = 4;

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function Scalar({ value }: { value: Json }) {
  if (value === null || value === undefined || value === "") return <span className="text-slate-400">—</span>;
  if (typeof value === "boolean") return <span>{value ? "Yes" : "No"}</span>;
  if (typeof value === "number") return <span className="tabular-nums">{value}</span>;
  return <span className="whitespace-pre-wrap break-words">{String(value)}</span>;
}

function RawJson({ value }: { value: Json }) {
  return (
    <pre className="overflow-x-auto rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-800">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function Value({ value, depth }: { value: Json; depth: number }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-400">none</span>;
    if (depth >= MAX_DEPTH) return <RawJson value={value} />;
    const allScalars = value.every((v) => !isRecord(v) && !Array.isArray(v));
    return (
      <ul className={allScalars ? "list-disc space-y-0.5 pl-5" : "space-y-2"}>
        {value.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity of a payload list item
          <li key={i} className={allScalars ? "" : "rounded-md border border-slate-200 p-2 dark:border-slate-700"}>
            <Value value={item} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  if (isRecord(value)) {
    if (depth >= MAX_DEPTH) return <RawJson value={value} />;
    return <Fields value={value} depth={depth + 1} />;
  }
  return <Scalar value={value} />;
}

function Fields({ value, depth }: { value: Record<string, Json>; depth: number }) {
  const entries = Object.entries(value);
  if (entries.length === 0) return <span className="text-slate-400">empty</span>;
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-[minmax(8rem,auto)_1fr]">
      {entries.map(([key, v]) => (
        <div key={key} className="contents">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400 sm:pt-0.5">
            {humanize(key)}
          </dt>
          <dd className="min-w-0 text-sm">
            <Value value={v} depth={depth} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function PayloadView({ payload }: { payload: Json }) {
  return (
    <div>
      {isRecord(payload) ? <Fields value={payload} depth={0} /> : <RawJson value={payload} />}
      <details className="mt-3 text-xs">
        <summary className="cursor-pointer text-slate-500 hover:text-slate-700 dark:hover:text-slate-300">
          Show JSON
        </summary>
        <div className="mt-2">
          <RawJson value={payload} />
        </div>
      </details>
    </div>
  );
}
