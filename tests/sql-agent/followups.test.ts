import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/chat/sessions/[id]/route";
import type { ChatMessageView } from "@/lib/chat/contract";
import type { RephrasingsPart, SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { suiteWarehouse } from "../support/sql-datasets";

// The offline analyst over a conversation: an elliptical follow-up ("What about 1996?") is the
// previous question with the changed part, and a declined question offers phrasings it answers.

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;
const rephrasingsPart = (chunks: UIMessageChunk[]): RephrasingsPart | undefined =>
  (chunks.find((c) => c.type === "data-rephrasings") as { data: RephrasingsPart } | undefined)?.data;

for (const target of appTargets()) {
  describe(`the Data Analyst's follow-ups and rephrasings on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const { direct } = suiteWarehouse(suite, "followup-test-key");
    const freight = (year: number) =>
      direct(`select s.company_name, sum(o.freight) from northwind.orders o
        join northwind.shippers s on s.shipper_id = o.ship_via
        where o.order_date >= '${year}-01-01' and o.order_date < '${year + 1}-01-01'
        group by s.company_name order by 2 desc, 1`);
    const pairs = (rows: unknown[][]) =>
      rows
        .map((r) => [String(r[0]), Number(Number(r[1]).toFixed(2))])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

    it('reads "What about 1996?" after a 1997 answer as the same question for 1996', async () => {
      const member = await principal(suite.tenants.demo);
      const first = await postChat(member.auth, {
        agentId: "data-analyst",
        message: "What is the total freight per shipper in 1997?",
      });
      expect(pairs(sqlPart(first.chunks)?.rows ?? []), textOf(first.chunks)).toEqual(pairs(await freight(1997)));
      const sessionId = first.headers.get("x-vigil-session-id") as string;

      const next = await postChat(member.auth, { agentId: "data-analyst", sessionId, message: "What about 1996?" });
      expect(next.chunks.find((c) => c.type === "data-route")).toMatchObject({ data: { route: "sql" } });
      const expected = await freight(1996);
      expect(expected.length).toBeGreaterThan(0);
      // 1996's figures, not 1997's again.
      expect(pairs(await freight(1996))).not.toEqual(pairs(await freight(1997)));
      expect(pairs(sqlPart(next.chunks)?.rows ?? []), textOf(next.chunks)).toEqual(pairs(expected));

      // A changed value: the previous filter's value replaced.
      const germany = await postChat(member.auth, {
        agentId: "data-analyst",
        sessionId,
        message: "List customers whose country is Germany",
      });
      expect(sqlPart(germany.chunks)).toBeDefined();
      const brazil = await postChat(member.auth, { agentId: "data-analyst", sessionId, message: "and only Brazil?" });
      const brazilExpected = await direct(
        "select company_name from northwind.customers where country = 'Brazil' order by company_name",
      );
      expect(sqlPart(brazil.chunks)?.rows.map((r) => r[0])).toEqual(brazilExpected.map((r) => r[0]));
    }, 120_000);

    it("offers another year only where the data has it: after 1998 (northwind's last), 1997, never 1999", async () => {
      const member = await principal(suite.tenants.demo);
      const years = (await direct("select distinct extract(year from order_date)::int from northwind.orders")).map(
        (r) => Number(r[0]),
      );
      const last = Math.max(...years);
      const turn = await postChat(member.auth, {
        agentId: "data-analyst",
        message: `What is the total freight per shipper in ${last}?`,
      });
      const followups = sqlPart(turn.chunks)?.followups ?? [];
      expect(followups, textOf(turn.chunks)).toContain(`And in ${last - 1}?`);
      expect(followups).not.toContain(`And in ${last + 1}?`);
      expect(followups.filter((q) => /^And in \d{4}\?$/.test(q))).toHaveLength(1);

      // The first year of the data offers the one after it.
      const first = Math.min(...years);
      const early = await postChat(member.auth, {
        agentId: "data-analyst",
        message: `What is the total freight per shipper in ${first}?`,
      });
      expect(sqlPart(early.chunks)?.followups).toContain(`And in ${first + 1}?`);
    }, 120_000);

    it('reads "What about Jazz?" after a Rock count as the same count for Jazz, and declines a change the data does not hold', async () => {
      const member = await principal(suite.tenants.demo);
      const count = async (genre: string) =>
        Number(
          (
            await direct(`select count(*) from chinook.track t join chinook.genre g on g.genre_id = t.genre_id
              where g.name = '${genre}'`)
          )[0][0],
        );
      const rock = await postChat(member.auth, {
        agentId: "data-analyst",
        message: "How many tracks are there in the Rock genre?",
      });
      expect(sqlPart(rock.chunks)?.rows.flat().map(Number), textOf(rock.chunks)).toEqual([await count("Rock")]);
      const sessionId = rock.headers.get("x-vigil-session-id") as string;

      const jazz = await postChat(member.auth, { agentId: "data-analyst", sessionId, message: "What about Jazz?" });
      const jazzCount = await count("Jazz");
      expect(jazzCount).not.toBe(await count("Rock"));
      expect(sqlPart(jazz.chunks)?.rows.flat().map(Number), textOf(jazz.chunks)).toEqual([jazzCount]);
      expect(textOf(jazz.chunks)).toContain(jazzCount.toLocaleString("en-US"));

      // Not a value of any column: no figure, and the answer names the word it could not place.
      const unknown = await postChat(member.auth, {
        agentId: "data-analyst",
        sessionId,
        message: "What about Zydecopolka?",
      });
      expect(sqlPart(unknown.chunks), textOf(unknown.chunks)).toBeUndefined();
      expect(textOf(unknown.chunks)).toMatch(/zydecopolka/i);
    }, 120_000);

    it("reads a near spelling of a value as that value, and says so", async () => {
      const member = await principal(suite.tenants.demo);
      const turn = await postChat(member.auth, {
        agentId: "data-analyst",
        message: "How many customers are in Germny?",
      });
      const germany = Number(
        (await direct("select count(*) from northwind.customers where country = 'Germany'"))[0][0],
      );
      expect(germany).toBeGreaterThan(0);
      expect(sqlPart(turn.chunks)?.rows.flat().map(Number), textOf(turn.chunks)).toEqual([germany]);
      // The answer says how it read the word.
      expect(sqlPart(turn.chunks)?.interpretation ?? "").toMatch(/Germany/);
    }, 120_000);

    it("offers rephrasings on a decline as data, and every one it offers is answered", async () => {
      const member = await principal(suite.tenants.demo);
      const turn = await postChat(member.auth, {
        agentId: "data-analyst",
        message: "How many tracks are there with a happy mood?",
      });
      expect(sqlPart(turn.chunks)).toBeUndefined();
      const offered = rephrasingsPart(turn.chunks);
      expect(offered, textOf(turn.chunks)).toBeDefined();
      expect(offered?.unplaced.length).toBeGreaterThan(0);
      expect(offered?.phrasings.length).toBeGreaterThan(0);
      // The tables the question named come first: the first offer is about tracks.
      expect(offered?.phrasings[0]).toMatch(/track/i);
      for (const phrasing of offered?.phrasings ?? []) expect(textOf(turn.chunks)).toContain(phrasing);

      // Saved with the answer, so a reopened conversation shows the buttons again.
      const sessionId = turn.headers.get("x-vigil-session-id") as string;
      const detail = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${sessionId}`,
        headers: member.auth,
        params: { id: sessionId },
      });
      const saved = (detail.body as { messages: ChatMessageView[] }).messages.at(-1);
      expect(saved?.metadata.rephrasings?.phrasings).toEqual(offered?.phrasings);

      for (const phrasing of offered?.phrasings ?? []) {
        const answer = await postChat(member.auth, { agentId: "data-analyst", message: phrasing });
        const part = sqlPart(answer.chunks);
        expect(part, `${phrasing}: ${textOf(answer.chunks)}`).toBeDefined();
        expect(part?.rows.length, phrasing).toBeGreaterThan(0);
      }
    }, 180_000);
  });
}
