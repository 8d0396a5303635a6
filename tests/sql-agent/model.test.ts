import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/runs/[id]/route";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { type ModelCall, type ScriptedModel, startScriptedModel } from "../research/scripted-model";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { suiteWarehouse } from "../support/sql-datasets";

// The Data Analyst with a model configured: an OpenAI-compatible endpoint whose answers are
// scripted per analyst step (select, generate, correct). The workflow, the engine seam, the AI
// SDK, the guard, validation and the demo warehouse are the real ones; only the model is scripted.

const MODEL_ID = "scripted-analyst";
const ROCK = "How many tracks are there in the Rock genre?";
const ROCK_SQL = `SELECT COUNT(*) AS track_count FROM chinook.track t
  JOIN chinook.genre g ON g.genre_id = t.genre_id WHERE g.name = 'Rock'`;
const ROCK_READING = "Counting tracks whose genre is Rock";
const SELECTED = {
  tables: ["chinook.track", "chinook.genre"],
  terms: [
    { term: "tracks", meaning: "rows of chinook.track" },
    { term: "Rock", meaning: "chinook.genre.name = 'Rock'" },
  ],
};
const generated = (sql: string | null, columns = ["track_count"], reason: string | null = null) => ({
  sql,
  columns,
  interpretation: ROCK_READING,
  reason,
});

const stepOf = (c: ModelCall) => /^Analyst step: (\w+)\./.exec(c.system)?.[1] ?? "unknown";
const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;

let model: ScriptedModel;
const saved: Record<string, string | undefined> = {};
const setEnv = (vars: Record<string, string>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    process.env[k] = v;
  }
};
beforeAll(async () => {
  model = await startScriptedModel(MODEL_ID);
});
beforeEach(() => {
  setEnv({
    VIGIL_MODEL_PROVIDER: "openai-compatible",
    VIGIL_MODEL: MODEL_ID,
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
  });
  model.calls.length = 0;
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await model?.close();
});

for (const target of appTargets()) {
  describe(`the Data Analyst with a scripted model on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const { direct } = suiteWarehouse(suite, "model-test-key");
    const rockCount = async () =>
      Number(
        (
          await direct(
            "select count(*) from chinook.track t join chinook.genre g on g.genre_id = t.genre_id where g.name = 'Rock'",
          )
        )[0][0],
      );
    const ask = async (message: string) => {
      const member = await principal(suite.tenants.demo);
      const turn = await postChat(member.auth, { agentId: "data-analyst", message });
      expect(turn.status).toBe(200);
      const runId = turn.headers.get("x-vigil-run-id") as string;
      const run = await call(runRoute.GET, { path: `/api/runs/${runId}`, headers: member.auth, params: { id: runId } });
      const state = (run.body as { run: { state: Record<string, unknown> } }).run.state;
      return { turn, part: sqlPart(turn.chunks), text: textOf(turn.chunks), state };
    };

    it("selects the tables, writes the SQL and answers with the right rows and its reading", async () => {
      model.script = (c) => (stepOf(c) === "select" ? SELECTED : generated(ROCK_SQL));
      const { part, text, state } = await ask(ROCK);
      expect(part, text).toBeDefined();
      const expected = await rockCount();
      expect(expected).toBeGreaterThan(0);
      expect(Number(part?.rows[0][0])).toBe(expected);
      expect(part?.columns).toEqual(["track_count"]);
      expect(part?.interpretation).toBe(ROCK_READING);
      expect(text.startsWith(ROCK_READING)).toBe(true);
      expect(text).toContain(new Intl.NumberFormat("en-US").format(expected));
      expect(state.engine).toBe(MODEL_ID);
      expect(model.calls.map(stepOf)).toEqual(["select", "generate"]);
      // The generation step saw the chosen tables' columns and the join from the join graph.
      const generation = model.calls[1].prompt;
      expect(generation).toMatch(/chinook\.track\.genre_id = chinook\.genre\.genre_id/);
      expect(generation).toContain("Question: How many tracks are there in the Rock genre?");
      // The guard bounded the statement before it ran.
      expect(part?.sql).toMatch(/limit/i);
    }, 120_000);

    it("sends SQL the guard refuses to the correction step, and runs only the corrected SELECT", async () => {
      const before = await rockCount();
      model.script = (c) => {
        const step = stepOf(c);
        if (step === "select") return SELECTED;
        if (step === "generate") return generated("DELETE FROM chinook.track WHERE genre_id = 1");
        return generated(ROCK_SQL);
      };
      const { part, state } = await ask(ROCK);
      expect(Number(part?.rows[0][0])).toBe(before);
      expect(await rockCount()).toBe(before);
      expect(model.calls.map(stepOf)).toEqual(["select", "generate", "correct"]);
      // The correction was told what the guard said about the first statement.
      expect(model.calls[2].prompt).toContain("DELETE FROM chinook.track");
      expect(model.calls[2].prompt).toMatch(/What was wrong: \w+/);
      expect(state.sql_correction_attempts).toBe(1);
      expect((state.correction_history as { sql: string }[])[0].sql).toContain("DELETE");
    }, 120_000);

    it("corrects a statement whose result lacks the columns the model said it returns", async () => {
      model.script = (c) => {
        const step = stepOf(c);
        if (step === "select") return SELECTED;
        if (step === "generate")
          return generated(
            "SELECT g.name, COUNT(*) AS n FROM chinook.genre g JOIN chinook.track t ON t.genre_id = g.genre_id GROUP BY g.name",
          );
        return generated(ROCK_SQL);
      };
      const { part, state } = await ask(ROCK);
      expect(Number(part?.rows[0][0])).toBe(await rockCount());
      expect(state.sql_correction_attempts).toBe(1);
      expect(model.calls[2].prompt).toMatch(/returned the columns \["name","n"\]/);
    }, 120_000);

    it("declines, naming the reason, when corrections never pass, and runs nothing", async () => {
      model.script = (c) => (stepOf(c) === "select" ? SELECTED : generated("DROP TABLE chinook.track"));
      const { part, text, state } = await ask(ROCK);
      expect(part).toBeUndefined();
      expect(state.result).toBeNull();
      expect(text).toMatch(/did not pass its checks.*3 corrections did not repair it/);
      expect(model.calls.filter((c) => stepOf(c) === "correct")).toHaveLength(3);
      expect(await rockCount()).toBeGreaterThan(0);
    }, 120_000);

    it("declines with the reason when the model's output is unusable or it says the data cannot answer", async () => {
      model.script = (c) => (stepOf(c) === "select" ? SELECTED : "Sure! Just count the rock tracks.");
      const unusable = await ask(ROCK);
      expect(unusable.part).toBeUndefined();
      expect(unusable.text).toMatch(/the model's SQL could not be used \(.+\), so no SQL was run/);

      model.script = (c) =>
        stepOf(c) === "select" ? SELECTED : generated(null, [], 'no column records a track\'s "mood"');
      const refused = await ask("How many tracks are there with a happy mood?");
      expect(refused.part).toBeUndefined();
      expect(refused.text).toContain('no column records a track\'s "mood"');

      model.calls.length = 0;
      model.script = (c) =>
        stepOf(c) === "select" ? { tables: ["nowhere.invented"], terms: [] } : generated(ROCK_SQL);
      const invented = await ask(ROCK);
      expect(invented.part).toBeUndefined();
      expect(invented.text).toMatch(/named no table the source has \(it named "nowhere\.invented"\)/);
      expect(
        model.calls.map(stepOf),
        JSON.stringify(model.calls.map((c) => [stepOf(c), c.prompt.slice(0, 80)])),
      ).not.toContain("generate");
    }, 120_000);

    it("asks the model where a question goes only when the offline reading is not sure", async () => {
      // Names the source's tables: certain, no routing call.
      model.script = (c) => (stepOf(c) === "select" ? SELECTED : generated(ROCK_SQL));
      await ask(ROCK);
      expect(model.calls.map(stepOf)).not.toContain("route");

      // Names nothing of the source, only a data question's shape ("most"): not certain offline, so
      // the model decides; it reads it as a data question, and the SQL route answers with the right rows.
      model.calls.length = 0;
      model.script = (c) => {
        const step = stepOf(c);
        if (step === "route") return { route: "sql", reason: "asks which genre has the most tracks" };
        return step === "select" ? SELECTED : generated(ROCK_SQL);
      };
      const routed = await ask("Which kind of songs do people like most?");
      expect(model.calls.map(stepOf)).toEqual(["route", "select", "generate"]);
      expect(model.calls[0].prompt).toContain("Question: Which kind of songs do people like most?");
      expect(model.calls[0].prompt).toMatch(/chinook\.track/);
      expect(Number(routed.part?.rows[0][0])).toBe(await rockCount());
      expect(routed.state.next_step).toBe("sql");
    }, 120_000);

    it("answers a general question with the model, and offline when the model's output is unusable", async () => {
      const REPLY = "It says how far values typically lie from their mean.";
      model.script = (c) => (stepOf(c) === "route" ? { route: "general", reason: "a definition" } : { answer: REPLY });
      const general = await ask("What does a standard deviation tell me?");
      expect(model.calls.map(stepOf)).toEqual(["route", "general"]);
      expect(general.part).toBeUndefined();
      expect(general.text).toContain(REPLY);
      expect(general.state.next_step).toBe("general");

      // Routing output that is not the schema leaves the offline reading (general: no data shape, no
      // table named), and an
      // unusable general answer leaves the offline reply: never an empty answer.
      model.calls.length = 0;
      model.script = () => "not json at all";
      const fallback = await ask("What does a standard deviation tell me?");
      expect(model.calls.map(stepOf)).toEqual(["route", "general"]);
      expect(fallback.text).toMatch(/I answer questions about your data by writing read-only SQL/);
      expect(fallback.text).not.toContain(REPLY);
    }, 120_000);

    it("falls back to the offline planner when the model cannot be reached, and says so", async () => {
      setEnv({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" });
      const { part, text, state } = await ask("How many orders did each shipper deliver in 1997?");
      const expected = await direct(`select s.company_name, count(*) from northwind.orders o
        join northwind.shippers s on s.shipper_id = o.ship_via
        where o.order_date >= '1997-01-01' and o.order_date < '1998-01-01'
        group by s.company_name order by 2 desc, 1`);
      expect(part?.rows.map((r) => [r[0], Number(r[1])])).toEqual(expected.map((r) => [r[0], Number(r[1])]));
      expect(text).toMatch(/The model \(scripted-analyst\) could not be reached, so the offline planner answered/);
      expect(state.engine).toBe("offline");
    }, 120_000);
  });
}
