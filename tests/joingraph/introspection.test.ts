// Introspection against real databases loaded with Chinook: PGlite, the server PostgreSQL
// (TEST_DATABASE_URL) and MariaDB (required: an unset or unreachable server fails its suite).
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import mysql from "mysql2/promise";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildJoinGraph,
  introspectMysql,
  introspectPostgres,
  mysqlCatalogClient,
  pgliteCatalogClient,
  postgresCatalogClient,
  type SchemaCatalog,
} from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";
import { chinookForeignKeyCount, chinookMysqlScript, chinookPostgresScript } from "../../bench/support/chinook";

const MYSQL_URL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";

/** `invoice_line.track_id->track.track_id` and `InvoiceLine.TrackId->Track.TrackId` compare equal. */
const normalised = (graph: JoinGraph) =>
  graph.relationships
    .map((r) => `${r.from_table}.${r.from_column}->${r.to_table}.${r.to_column}`.toLowerCase().replaceAll("_", ""))
    .sort();

const CHINOOK_FKS = [
  "album.artistid->artist.artistid",
  "customer.supportrepid->employee.employeeid",
  "employee.reportsto->employee.employeeid",
  "invoice.customerid->customer.customerid",
  "invoiceline.invoiceid->invoice.invoiceid",
  "invoiceline.trackid->track.trackid",
  "playlisttrack.playlistid->playlist.playlistid",
  "playlisttrack.trackid->track.trackid",
  "track.albumid->album.albumid",
  "track.genreid->genre.genreid",
  "track.mediatypeid->mediatype.mediatypeid",
];

// What every dialect must find in Chinook: each declared key once, nothing guessed on top.
function expectChinookGraph(catalog: SchemaCatalog, dialect: "postgres" | "mysql") {
  const graph = buildJoinGraph(catalog);
  expect(Object.keys(graph.tables)).toHaveLength(11);
  expect(graph.relationships).toHaveLength(chinookForeignKeyCount(dialect));
  expect(normalised(graph)).toEqual(CHINOOK_FKS);
  for (const rel of graph.relationships) {
    expect(rel).toMatchObject({ source: "fk", confidence: 1, cardinality: "N:1" });
    expect(rel.note).toMatch(/\S/); // the constraint's name
  }
  return graph;
}

// Without its declared keys, names alone recover all but the two whose names do not say the
// table (`support_rep_id`, `reports_to`), at the table-name confidence.
function expectGuessedChinook(catalog: SchemaCatalog) {
  const bare = { ...catalog, tables: catalog.tables.map((t) => ({ ...t, foreign_keys: [] })) };
  const graph = buildJoinGraph(bare);
  expect(normalised(graph)).toEqual(
    CHINOOK_FKS.filter((id) => !id.startsWith("customer.supportrepid") && !id.startsWith("employee.reportsto")),
  );
  for (const rel of graph.relationships) expect(rel).toMatchObject({ source: "heuristic", confidence: 0.8 });
}

describe("PostgreSQL introspection on PGlite (Chinook)", () => {
  const db = new PGlite();
  let catalog: SchemaCatalog;

  beforeAll(async () => {
    await db.exec(chinookPostgresScript());
    // A second schema with a composite key, comments and a unique index that is not a constraint.
    await db.exec(`
      create schema extra;
      create table extra.playlist_track_rating (
        rating_id int primary key,
        playlist_id int not null,
        track_id int not null,
        stars int not null,
        foreign key (playlist_id, track_id) references public.playlist_track (playlist_id, track_id)
      );
      create unique index on extra.playlist_track_rating (playlist_id, track_id);
      comment on table public.artist is 'People and bands';
      comment on column public.artist.name is 'As credited';
      analyze;
    `);
    catalog = await introspectPostgres(pgliteCatalogClient(db), { schemas: ["public"] });
  });
  afterAll(() => db.close());

  it("finds Chinook's tables and every foreign key, and guesses nothing more", () => {
    const graph = expectChinookGraph(catalog, "postgres");
    expect(graph.dialect).toBe("postgres");
    expect(graph.relationships.find((r) => r.id === "invoice_line.track_id->track.track_id")).toEqual({
      id: "invoice_line.track_id->track.track_id",
      from_table: "invoice_line",
      from_column: "track_id",
      to_table: "track",
      to_column: "track_id",
      column_pairs: [{ from_column: "track_id", to_column: "track_id" }],
      confidence: 1,
      source: "fk",
      cardinality: "N:1",
      note: "invoice_line_track_id_fkey",
    });
  });

  it("guesses nine of the eleven keys from snake_case names alone", () => {
    expectGuessedChinook(catalog);
  });

  it("reads columns with types, nullability and comments, keys, and the planner's row estimate", () => {
    const graph = buildJoinGraph(catalog);
    const artist = graph.tables.artist;
    expect(artist.comment).toBe("People and bands");
    expect(artist.columns).toEqual([
      { name: "artist_id", data_type: "integer", nullable: false, comment: null },
      { name: "name", data_type: "character varying(120)", nullable: true, comment: "As credited" },
    ]);
    expect(artist.primary_key).toEqual(["artist_id"]);
    expect(artist.unique_columns).toEqual(["artist_id"]);
    expect(graph.tables.invoice.columns.find((c) => c.name === "total")?.data_type).toBe("numeric(10,2)");
    expect(graph.tables.playlist_track.primary_key).toEqual(["playlist_id", "track_id"]);
    expect(graph.tables.playlist_track.unique_columns).toEqual([]);
    expect(graph.tables.playlist_track.row_estimate).toBe(8715);
    expect(graph.tables.track.row_estimate).toBe(3503);
    expect(graph.tables.media_type.row_estimate).toBe(5);
  });

  it("follows composite foreign keys across the schemas it was asked to read", async () => {
    const both = buildJoinGraph(await introspectPostgres(pgliteCatalogClient(db), { schemas: ["public", "extra"] }));
    expect(Object.keys(both.tables)).toHaveLength(12);
    const rating = both.tables.playlist_track_rating;
    expect(rating.schema).toBe("extra");
    expect(rating.unique_keys).toEqual([["rating_id"], ["playlist_id", "track_id"]]);
    const composite = both.relationships.find((r) => r.from_table === "playlist_track_rating");
    expect(composite).toMatchObject({
      id: "playlist_track_rating.(playlist_id,track_id)->playlist_track.(playlist_id,track_id)",
      from_column: "playlist_id",
      to_column: "playlist_id",
      column_pairs: [
        { from_column: "playlist_id", to_column: "playlist_id" },
        { from_column: "track_id", to_column: "track_id" },
      ],
      source: "fk",
      // Both sides are unique keys: one rating per playlist entry.
      cardinality: "1:1",
    });
    // Read alone, `extra` has a key into a schema that was not read: no relationship to nowhere.
    const alone = buildJoinGraph(await introspectPostgres(pgliteCatalogClient(db), { schemas: ["extra"] }));
    expect(alone.relationships).toEqual([]);
  });

  it("gives a null row estimate for a table never analysed", async () => {
    await db.exec("create table public.fresh (id int primary key)");
    const again = await introspectPostgres(pgliteCatalogClient(db));
    expect(again.tables.find((t) => t.name === "fresh")?.row_estimate).toBeNull();
    await db.exec("drop table public.fresh");
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
describe("PostgreSQL introspection on the server (Chinook)", () => {
  const name = `jg_test_${randomBytes(5).toString("hex")}`;
  let sql: postgres.Sql;

  beforeAll(async () => {
    // Without a server this suite fails and says so, as the MariaDB one below does: it used to
    // be left out without a word, and a run without TEST_DATABASE_URL looked complete.
    if (!serverUrl)
      throw new Error(
        "TEST_DATABASE_URL is not set: this suite introspects Chinook on the server PostgreSQL (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres); it does not skip.",
      );
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await sql.unsafe(chinookPostgresScript());
    await sql.unsafe("analyze");
  });
  afterAll(async () => {
    await sql?.end();
    if (!serverUrl) return;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("finds the same tables and foreign keys as on PGlite", async () => {
    const catalog = await introspectPostgres(postgresCatalogClient(sql));
    const graph = expectChinookGraph(catalog, "postgres");
    expect(graph.tables.playlist_track.row_estimate).toBe(8715);
    expect(graph.tables.playlist_track.primary_key).toEqual(["playlist_id", "track_id"]);
  });
});

describe("MySQL introspection on MariaDB (Chinook)", () => {
  const name = `jg_test_${randomBytes(5).toString("hex")}`;
  let conn: mysql.Connection;

  beforeAll(async () => {
    try {
      conn = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
    } catch (error) {
      throw new Error(
        `MariaDB is unreachable at ${MYSQL_URL} (${(error as Error).message}). Start it (e.g. \`service mariadb start\`) or point TEST_MYSQL_URL at a MySQL/MariaDB server; this suite does not skip.`,
      );
    }
    await conn.query(`create database \`${name}\` character set utf8mb4`);
    await conn.query(`use \`${name}\``);
    await conn.query(chinookMysqlScript());
    await conn.query(
      "analyze table Album, Artist, Customer, Employee, Genre, Invoice, InvoiceLine, MediaType, Playlist, PlaylistTrack, Track",
    );
  });
  afterAll(async () => {
    if (!conn) return;
    await conn.query(`drop database if exists \`${name}\``);
    await conn.end();
  });

  it("finds Chinook's tables and every foreign key, the same relationships as PostgreSQL", async () => {
    const catalog = await introspectMysql(mysqlCatalogClient(conn));
    const graph = expectChinookGraph(catalog, "mysql");
    expect(graph.dialect).toBe("mysql");
    expect(graph.tables.PlaylistTrack.schema).toBe(name);
    expect(graph.tables.PlaylistTrack.primary_key).toEqual(["PlaylistId", "TrackId"]);
    expect(graph.tables.Artist.columns[1]).toEqual({
      name: "Name",
      data_type: "varchar(120)",
      nullable: true,
      comment: null,
    });
    expect(graph.tables.Track.unique_columns).toEqual(["TrackId"]);
    // InnoDB's estimate is sampled: near the real count, not equal to it.
    expect(graph.tables.PlaylistTrack.row_estimate).toBeGreaterThan(8715 / 2);
    expect(graph.tables.PlaylistTrack.row_estimate).toBeLessThan(8715 * 2);
  });

  it("guesses the same nine keys from PascalCase names alone", async () => {
    expectGuessedChinook(await introspectMysql(mysqlCatalogClient(conn)));
  });

  it("reads the named database from any connection, and comments where MySQL keeps them", async () => {
    await conn.query("alter table Genre comment = 'Music genres'");
    await conn.query("alter table Genre modify Name varchar(120) comment 'Shown in the store'");
    const catalog = await introspectMysql(mysqlCatalogClient(conn), { database: name });
    const genre = catalog.tables.find((t) => t.name === "Genre");
    expect(genre?.comment).toBe("Music genres");
    expect(genre?.columns.find((c) => c.name === "Name")?.comment).toBe("Shown in the store");
  });
});
