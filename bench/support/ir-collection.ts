import { createReadStream, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Judgments } from "./ndcg";

// A public IR test collection in the BEIR layout, the one most collections are published in
// (ir_datasets exports it too):
//   corpus.jsonl    {"_id": "...", "title": "...", "text": "..."} per line
//   queries.jsonl   {"_id": "...", "text": "..."} per line
//   qrels/<split>.tsv   "query-id<TAB>corpus-id<TAB>score" with a header line,
//                       or TREC's "query-id 0 corpus-id score" without one

export interface IrDocument {
  id: string;
  title: string;
  text: string;
}

export interface IrQuery {
  id: string;
  text: string;
  relevant: Judgments;
}

export interface IrCollection {
  name: string;
  /**
   * The reference BM25 nDCG@10 the collection's README publishes ("Reference Okapi BM25 …:
   * nDCG@10 = 0.6914"), when it has one: a figure computed outside this project.
   */
  publishedNdcg: number | null;
  documents: IrDocument[];
  /** Only queries with at least one relevant document: the others cannot be scored. */
  queries: IrQuery[];
}

/** Relevance judgments of the queries kept. */
export function judgmentCount(queries: IrQuery[]): number {
  return queries.reduce((sum, query) => sum + Object.keys(query.relevant).length, 0);
}

export class CollectionError extends Error {}

async function* linesOf(file: string): AsyncGenerator<[number, string]> {
  const reader = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of reader) {
    n++;
    if (line.trim()) yield [n, line];
  }
}

function need(file: string): string {
  if (!existsSync(file)) throw new CollectionError(`missing ${file}`);
  return file;
}

async function readJsonLines<T>(file: string, pick: (row: Record<string, unknown>) => T): Promise<T[]> {
  const out: T[] = [];
  for await (const [n, line] of linesOf(need(file))) {
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new CollectionError(`${file}:${n}: not a JSON object`);
    }
    if (!row || typeof row !== "object" || typeof (row as { _id?: unknown })._id !== "string")
      throw new CollectionError(`${file}:${n}: no string "_id"`);
    out.push(pick(row as Record<string, unknown>));
  }
  return out;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export async function readQrels(file: string): Promise<Map<string, Judgments>> {
  const byQuery = new Map<string, Judgments>();
  for await (const [n, line] of linesOf(need(file))) {
    const cells = line.trim().split(/\s+/);
    let query: string;
    let doc: string;
    let grade: number;
    if (cells.length === 3) [query, doc, grade] = [cells[0], cells[1], Number(cells[2])];
    else if (cells.length === 4) [query, doc, grade] = [cells[0], cells[2], Number(cells[3])];
    else throw new CollectionError(`${file}:${n}: expected 3 (BEIR) or 4 (TREC) columns`);
    if (!Number.isFinite(grade)) {
      if (n === 1) continue; // the BEIR header
      throw new CollectionError(`${file}:${n}: the relevance grade is not a number`);
    }
    const judged = byQuery.get(query) ?? {};
    judged[doc] = grade;
    byQuery.set(query, judged);
  }
  return byQuery;
}

export async function readCollection(dir: string, split = "test"): Promise<IrCollection> {
  const documents = await readJsonLines(path.join(dir, "corpus.jsonl"), (row) => ({
    id: row._id as string,
    title: text(row.title),
    text: text(row.text),
  }));
  const allQueries = await readJsonLines(path.join(dir, "queries.jsonl"), (row) => ({
    id: row._id as string,
    text: text(row.text),
  }));
  const qrels = await readQrels(path.join(dir, "qrels", `${split}.tsv`));
  const queries: IrQuery[] = [];
  for (const q of allQueries) {
    const relevant = qrels.get(q.id);
    if (!relevant || !Object.values(relevant).some((grade) => grade > 0) || !q.text.trim()) continue;
    queries.push({ ...q, relevant });
  }
  if (documents.length === 0) throw new CollectionError(`${dir}: the corpus is empty`);
  if (queries.length === 0) throw new CollectionError(`${dir}: no query of the ${split} split has a relevant document`);
  return { name: path.basename(path.resolve(dir)), publishedNdcg: publishedNdcg(dir), documents, queries };
}

function publishedNdcg(dir: string): number | null {
  const readme = path.join(dir, "README.md");
  if (!existsSync(readme)) return null;
  const found = /Reference Okapi BM25[^\n]*?nDCG@10\s*=\s*([0-9]*\.[0-9]+)/.exec(readFileSync(readme, "utf8"));
  return found ? Number(found[1]) : null;
}

/** The shared judged collections: VIGIL_IR_DIR, else `../shared/ir` beside the project. */
export function sharedCollectionsDir(): string {
  return process.env.VIGIL_IR_DIR ?? path.resolve(process.cwd(), "..", "shared", "ir");
}
