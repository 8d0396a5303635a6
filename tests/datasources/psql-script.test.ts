import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { loadPsqlScript, readPsqlScript } from "@/lib/datasources";

const items = (script: string) => [...readPsqlScript(script)];

describe("the psql script reader", () => {
  it("splits on semicolons only outside strings, identifiers, dollar quotes and comments", () => {
    const script = [
      "-- a comment; not a statement",
      "select 'a;b', E'it\\'s; fine', \"odd;name\" from t;",
      "/* block; /* nested; */ still comment; */ select 2;",
      "create function f() returns text language sql as $body$ select 'x;y' $body$;",
      "do $$ begin perform 1; end $$;",
      "select $1::int; select 3",
    ].join("\n");
    const sql = items(script).map((i) => (i.kind === "statement" ? i.sql : i.kind));
    expect(sql).toEqual([
      "-- a comment; not a statement\nselect 'a;b', E'it\\'s; fine', \"odd;name\" from t",
      "/* block; /* nested; */ still comment; */ select 2",
      "create function f() returns text language sql as $body$ select 'x;y' $body$",
      "do $$ begin perform 1; end $$",
      "select $1::int",
      "select 3",
    ]);
  });

  it("reads COPY … FROM stdin data up to \\. and meta-commands when no statement is open", () => {
    const script = "\\c other\nCOPY t (a, b) FROM stdin;\n1\tx;y\n2\t\\N\n\\.\nselect 1;\n\\set ON_ERROR_STOP on\n";
    expect(items(script)).toEqual([
      { kind: "meta", command: "\\c", args: "other", line: 1 },
      { kind: "copy", sql: "COPY t (a, b) FROM stdin", data: "1\tx;y\n2\t\\N\n", line: 2 },
      { kind: "statement", sql: "select 1", line: 6 },
      { kind: "meta", command: "\\set", args: "ON_ERROR_STOP on", line: 7 },
    ]);
  });

  it("names the line a statement's code starts on, past leading comments", () => {
    const [first] = items("\n/* header\n   more */\n\nDROP DATABASE x;");
    expect(first).toMatchObject({ kind: "statement", line: 5 });
  });

  it("refuses a COPY block that never ends", () => {
    expect(() => items("COPY t FROM stdin;\n1\n")).toThrow(/no terminating/);
  });

  it("loads into PGlite, skipping database, owner and search-path statements with reasons", async () => {
    const pg = await PGlite.create("memory://");
    try {
      const report = await loadPsqlScript(
        pg,
        [
          "DROP DATABASE IF EXISTS shop;",
          "CREATE DATABASE shop;",
          "\\c shop;",
          "SELECT pg_catalog.set_config('search_path', '', false);",
          "CREATE TABLE public.item (id int, name text);",
          "ALTER TABLE public.item OWNER TO someone_absent;",
          "COPY public.item (id, name) FROM stdin;",
          "1\tone",
          "2\t\\N",
          "\\.",
        ].join("\n"),
      );
      expect(report).toMatchObject({ statements: 1, copies: 1, copiedRows: 2 });
      expect(report.skipped.map((s) => s.line)).toEqual([1, 2, 3, 4, 6]);
      expect((await pg.query("select count(*)::int as n from public.item")).rows).toEqual([{ n: 2 }]);
      await expect(loadPsqlScript(pg, "\\i other.sql")).rejects.toThrow(/not supported/);
      await expect(loadPsqlScript(pg, "select 1;\nselect nope;")).rejects.toThrow(/^Line 2/);
    } finally {
      await pg.close();
    }
  });
});
