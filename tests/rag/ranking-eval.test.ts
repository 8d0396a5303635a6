import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, setActiveDatabase } from "@/lib/db";
import { CollectionError, type IrCollection, judgmentCount, readCollection } from "../../bench/support/ir-collection";
import { ndcgAt } from "../../bench/support/ndcg";
import {
  indexable,
  knowledgeBaseRanker,
  loadCollection,
  referenceRanker,
  scoreRanking,
} from "../../bench/support/ranking-eval";
import { templateImage } from "../support/databases";

// What the held-out evaluation (npm run bench:ranking, tests/rag/ranking-public.test.ts) is built
// from, checked on collections small enough to judge by hand.

describe("nDCG@k", () => {
  const relevant = { a: 1, c: 2, z: 1 };

  it("counts linear gains as trec_eval does", () => {
    // DCG = 1/log2(2) + 2/log2(4) = 2; ideal = 2/log2(2) + 1/log2(3) + 1/log2(4)
    const ideal = 2 + 1 / Math.log2(3) + 0.5;
    expect(ndcgAt(10, ["a", "b", "c"], relevant, "linear")).toBeCloseTo(2 / ideal, 12);
  });

  it("counts exponential gains 2^rel − 1", () => {
    // DCG = 1 + 3/2; ideal = 3 + 1/log2(3) + 1/2
    expect(ndcgAt(10, ["a", "b", "c"], relevant)).toBeCloseTo(2.5 / (3.5 + 1 / Math.log2(3)), 12);
  });

  it("is 1 for the ideal ranking, 0 for nothing relevant, and cuts at k", () => {
    expect(ndcgAt(10, ["c", "a", "z"], relevant, "linear")).toBeCloseTo(1, 12);
    expect(ndcgAt(10, ["x", "y"], relevant, "linear")).toBe(0);
    expect(ndcgAt(1, ["b", "c"], relevant, "linear")).toBe(0);
    expect(ndcgAt(10, ["a"], { a: -1, b: 0 }, "linear")).toBe(0);
  });
});

describe("reading a collection in the BEIR layout", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-ir-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function collection(name: string, files: Record<string, string>): Promise<string> {
    const root = path.join(dir, name);
    await mkdir(path.join(root, "qrels"), { recursive: true });
    for (const [file, content] of Object.entries(files)) await writeFile(path.join(root, file), content);
    return root;
  }

  const corpus = [
    { _id: "d1", title: "Boundary layers", text: "laminar flow over a flat plate" },
    { _id: "d2", title: "", text: "shock waves in supersonic flow" },
  ]
    .map((d) => JSON.stringify(d))
    .join("\n");
  const queries = [
    { _id: "q1", text: "laminar boundary layer" },
    { _id: "q2", text: "shock waves" },
    { _id: "q3", text: "not judged" },
  ]
    .map((q) => JSON.stringify(q))
    .join("\n");

  it("reads BEIR qrels with their header and keeps only the judged queries", async () => {
    const root = await collection("beir", {
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td2\t1\nq2\td1\t0\n",
    });
    const read = await readCollection(root);
    expect(read.name).toBe("beir");
    expect(read.documents).toEqual([
      { id: "d1", title: "Boundary layers", text: "laminar flow over a flat plate" },
      { id: "d2", title: "", text: "shock waves in supersonic flow" },
    ]);
    expect(read.queries).toEqual([
      { id: "q1", text: "laminar boundary layer", relevant: { d1: 2 } },
      { id: "q2", text: "shock waves", relevant: { d2: 1, d1: 0 } },
    ]);
    expect(judgmentCount(read.queries)).toBe(3);
    expect(read.publishedNdcg).toBeNull();
  });

  it("reads the reference figure a collection's README publishes", async () => {
    const root = await collection("published", {
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "q1\td1\t1\n",
      "README.md":
        "# A collection\n\n## Reference baseline\n\n**Reference Okapi BM25 k1=1.2 b=0.75: nDCG@10 = 0.6914** on the 30 queries.\n",
    });
    expect((await readCollection(root)).publishedNdcg).toBe(0.6914);
  });

  it("reads TREC qrels (query, iteration, document, grade)", async () => {
    const root = await collection("trec", {
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "q2 0 d2 1\nq3 0 d1 0\n",
    });
    const read = await readCollection(root);
    expect(read.queries.map((q) => q.id)).toEqual(["q2"]);
  });

  it("names the file and line of a malformed entry, and a missing file", async () => {
    const broken = await collection("broken", {
      "corpus.jsonl": `${corpus}\n{"title": "no id"}\n`,
      "queries.jsonl": queries,
      "qrels/test.tsv": "q1\td1\t1\n",
    });
    await expect(readCollection(broken)).rejects.toThrow(/corpus\.jsonl:3: no string "_id"/);
    const badGrade = await collection("bad-grade", {
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "q1\td1\t1\nq2\td2\thigh\n",
    });
    await expect(readCollection(badGrade)).rejects.toThrow(/test\.tsv:2: the relevance grade is not a number/);
    await expect(readCollection(path.join(dir, "nowhere"))).rejects.toBeInstanceOf(CollectionError);
  });
});

// A dozen short abstracts with hand-made judgments: each query's answer is unambiguous.
const TINY: IrCollection = {
  name: "tiny",
  publishedNdcg: null,
  documents: [
    {
      id: "1",
      title: "Laminar boundary layers",
      text: "The laminar boundary layer on a flat plate at zero incidence.",
    },
    { id: "2", title: "Shock waves", text: "Oblique shock waves form in supersonic flow around a wedge." },
    { id: "3", title: "", text: "Heat transfer to a cylinder in hypersonic flow with a detached shock." },
    { id: "4", title: "Flutter", text: "Panel flutter of thin plates at high Mach numbers." },
    { id: "5", title: "Buckling", text: "Buckling of thin cylindrical shells under axial compression." },
    { id: "6", title: "Wing theory", text: "Lifting line theory for the induced drag of a finite wing." },
    { id: "7", title: "Transition", text: "Transition from laminar to turbulent flow in a boundary layer." },
    { id: "8", title: "Slender bodies", text: "Pressure distribution on slender bodies of revolution at small yaw." },
    { id: "9", title: "Creep", text: "Creep of metals at elevated temperature under constant stress." },
    // The same abstract under two ids: the knowledge base stores it once and must answer for both.
    { id: "10", title: "Jet noise", text: "Noise generated by a turbulent jet exhausting into still air." },
    { id: "11", title: "Jet noise", text: "Noise generated by a turbulent jet exhausting into still air." },
    { id: "12", title: "A title without an abstract", text: " " },
  ],
  queries: [
    { id: "a", text: "buckling of cylindrical shells in compression", relevant: { "5": 2 } },
    { id: "b", text: "induced drag of a finite wing", relevant: { "6": 2 } },
    { id: "c", text: "noise of turbulent jets", relevant: { "10": 2, "11": 1 } },
    { id: "d", text: "laminar boundary layer transition", relevant: { "7": 2, "1": 1 } },
    { id: "e", text: "creep of metals at high temperature", relevant: { "9": 1 } },
  ],
};

describe("the two rankers on a tiny judged collection", () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://", image: await templateImage("migrated") });
    setActiveDatabase(database);
  });

  afterAll(async () => {
    setActiveDatabase(undefined);
    await database.close();
  });

  it("ranks every answer first with the reference BM25", async () => {
    const documents = indexable(TINY.documents);
    expect(documents.map((d) => d.id)).not.toContain("12");
    const score = await scoreRanking(TINY, referenceRanker(documents));
    expect(score.firstRelevant).toBe(TINY.queries.length);
    expect(score.ndcg).toBeGreaterThan(0.95);
  });

  it("loads the collection through ingestion and ranks like the reference through searchKnowledge", async () => {
    const documents = indexable(TINY.documents);
    const loaded = await loadCollection(database, documents);
    // Identical abstracts are one document that answers for both ids.
    expect([...loaded.idsOf.values()].find((ids) => ids.length > 1)).toEqual(["10", "11"]);
    expect(loaded.idsOf.size).toBe(documents.length - 1);
    const rank = knowledgeBaseRanker(loaded);
    expect((await rank("noise of turbulent jets")).slice(0, 2)).toEqual(["10", "11"]);
    const ours = await scoreRanking(TINY, rank);
    const reference = await scoreRanking(TINY, referenceRanker(documents));
    expect(ours.firstRelevant).toBe(TINY.queries.length);
    expect(ours.ndcg).toBeGreaterThanOrEqual(0.98 * reference.ndcg);
  });
});
