// npm run bench:ranking -- <collection folder> [--split test] [--server]
//
// Ranking quality of the knowledge base (Okapi BM25 in SQL) on a public, judged IR test
// collection, against a reference Okapi BM25 run in the same process on the same documents and
// queries: nDCG@10 (trec_eval's, linear gains) for both, the ratio, and whether ours is within
// 2% of the reference. The collection is read in the BEIR layout (bench/support/ir-collection.ts).
// Without a folder, RANKING_COLLECTION or ../shared/ir/<name> (the first there) is used.
//
// --server also loads the collection into a fresh database on BENCH_DATABASE_URL (or
// TEST_DATABASE_URL); PGlite (embedded, in memory) is always measured.

import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { getDatabase } from "@/lib/db";
import {
  CollectionError,
  type IrCollection,
  judgmentCount,
  readCollection,
  sharedCollectionsDir,
} from "./support/ir-collection";
import { fmt, machineRows, percentile } from "./support/machine";
import {
  EVAL_DEPTH,
  indexable,
  knowledgeBaseRanker,
  loadCollection,
  type RankingScore,
  REFERENCE_PARAMS,
  referenceRanker,
  scoreRanking,
} from "./support/ranking-eval";
import { createServerDatabase } from "./support/server-database";

/** Ours must reach this share of the reference's nDCG@10. */
const WITHIN = 0.98;

function collectionFolder(given: string | undefined): string {
  const candidate = given ?? process.env.RANKING_COLLECTION;
  if (candidate) return candidate;
  const shared = sharedCollectionsDir();
  const first = existsSync(shared) ? readdirSync(shared).sort()[0] : undefined;
  if (first) return path.join(shared, first);
  throw new CollectionError(
    "no collection given: pass a folder in the BEIR layout (corpus.jsonl, queries.jsonl, qrels/test.tsv), " +
      "set RANKING_COLLECTION, or place one under ../shared/ir/",
  );
}

interface Measured {
  database: string;
  chunks: number;
  loadSeconds: number;
  score: RankingScore;
}

async function measureOn(kind: "pglite" | "postgres", collection: IrCollection): Promise<Measured> {
  const server = kind === "postgres" ? await createServerDatabase("vigil_ranking") : undefined;
  if (server) process.env.DATABASE_URL = server.url;
  else {
    delete process.env.DATABASE_URL;
    process.env.VIGIL_DATA_DIR = "memory://";
    process.env.VIGIL_SEED = "off";
  }
  const database = await getDatabase();
  try {
    const loaded = await loadCollection(database, collection.documents, (done) =>
      process.stderr.write(`${kind}: ${done.toLocaleString("en-US")} documents loaded\n`),
    );
    const score = await scoreRanking(collection, knowledgeBaseRanker(loaded));
    return {
      database: kind === "pglite" ? "embedded PGlite" : "server PostgreSQL",
      chunks: loaded.chunks,
      loadSeconds: loaded.loadSeconds,
      score,
    };
  } finally {
    await database.close();
    await server?.drop();
  }
}

function report(collection: IrCollection, reference: RankingScore, runs: Measured[]): string {
  const lines = ["# Ranking quality on a held-out test collection", ""];
  lines.push(`Run ${new Date().toISOString()} with \`npm run bench:ranking\`.`, "");
  lines.push(machineRows(), "");
  lines.push(
    `Collection \`${collection.name}\`: ${collection.documents.length.toLocaleString("en-US")} documents, ` +
      `${collection.queries.length} judged queries, ${judgmentCount(collection.queries).toLocaleString("en-US")} judgments. ` +
      `nDCG@${EVAL_DEPTH} as trec_eval computes it (linear gains), averaged over the queries. Reference: ` +
      `Okapi BM25 (k1 ${REFERENCE_PARAMS.k1}, b ${REFERENCE_PARAMS.b}) from wink-bm25-text-search over title and ` +
      "text, lower-cased, stop words removed, Porter-stemmed. Ours: `searchKnowledge` as the API runs it (BM25 in " +
      "one SQL statement over `to_tsvector('english')` postings), chunks folded into documents in rank order.",
    "",
  );
  lines.push(
    `| system | database | nDCG@${EVAL_DEPTH} | ratio to reference | relevant first | query p50 ms | query p95 ms | load s |`,
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  const row = (system: string, db: string, s: RankingScore, ratio: string, load: string) =>
    `| ${system} | ${db} | ${s.ndcg.toFixed(4)} | ${ratio} | ${s.firstRelevant}/${s.perQuery.length} | ` +
    `${fmt(percentile(s.latenciesMs, 50), 2)} | ${fmt(percentile(s.latenciesMs, 95), 2)} | ${load} |`;
  lines.push(row("reference Okapi BM25", "in memory", reference, "1.000", "—"));
  for (const run of runs) {
    lines.push(
      row(
        "Vigil knowledge base",
        run.database,
        run.score,
        (run.score.ndcg / reference.ndcg).toFixed(3),
        fmt(run.loadSeconds),
      ),
    );
  }
  const published = collection.publishedNdcg;
  if (published !== null) {
    lines.push(
      `| reference Okapi BM25, as the collection publishes it | — | ${published.toFixed(4)} | — | — | — | — | — |`,
    );
  }
  lines.push("");
  const verdicts = runs.map((run) => {
    const ratios = [run.score.ndcg / reference.ndcg, ...(published === null ? [] : [run.score.ndcg / published])];
    return (
      `${run.database}: ${ratios.every((r) => r >= WITHIN) ? "met" : "NOT met"} ` +
      `(${ratios[0].toFixed(3)} of the reference run here${published === null ? "" : `, ${ratios[1].toFixed(3)} of the published one`})`
    );
  });
  lines.push(
    `Goal: nDCG@${EVAL_DEPTH} at least ${WITHIN} of the reference${published === null ? "" : "s"} — ${verdicts.join("; ")}.`,
  );
  return lines.join("\n");
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { split: { type: "string", default: "test" }, server: { type: "boolean", default: false } },
  });
  const folder = collectionFolder(positionals[0]);
  const read = await readCollection(folder, values.split);
  const collection = { ...read, documents: indexable(read.documents) };
  process.stderr.write(
    `${collection.name}: ${collection.documents.length} documents, ${collection.queries.length} judged queries\n`,
  );
  const reference = await scoreRanking(collection, referenceRanker(collection.documents));
  const runs = [await measureOn("pglite", collection)];
  if (values.server) runs.push(await measureOn("postgres", collection));
  const table = report(collection, reference, runs);
  console.log(table);
  const resultsDir = path.join(process.cwd(), "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, `ranking-${collection.name}.md`), `${table}\n`);
}

main().catch((error) => {
  console.error(error instanceof CollectionError ? `bench:ranking: ${error.message}` : error);
  process.exit(1);
});
