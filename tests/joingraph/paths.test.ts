// Path finding, join plans and bridge discovery: hand-checked paths on Chinook (introspected from
// PGlite) and the SQL analyst design's workTime example as a small graph written here.
import { PGlite } from "@electric-sql/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import {
  applyOverrides,
  buildJoinGraph,
  clearPathCache,
  createPathFinder,
  findBridgeTables,
  introspectPostgres,
  joinCost,
  PATH_DEFAULTS,
  pgliteCatalogClient,
  type SchemaCatalog,
} from "@/lib/joingraph";
import type { JoinGraph, JoinRelationship } from "@/lib/joingraph/contract";
import { chinookPostgresScript } from "../../bench/support/chinook";

const ids = (rels: readonly JoinRelationship[] | null) => rels?.map((r) => r.id) ?? null;

describe("paths on Chinook", () => {
  let chinook: JoinGraph;

  beforeAll(async () => {
    const db = new PGlite();
    await db.exec(chinookPostgresScript());
    chinook = applyOverrides(buildJoinGraph(await introspectPostgres(pgliteCatalogClient(db))), {
      table_metadata: { playlist_track: { role: "bridge" } },
    }).graph;
    await db.close();
  });

  it("invoice_line → track → album → artist, each relationship in its own direction", () => {
    const finder = createPathFinder(chinook);
    expect(ids(finder.findShortestPath("invoice_line", "artist"))).toEqual([
      "invoice_line.track_id->track.track_id",
      "track.album_id->album.album_id",
      "album.artist_id->artist.artist_id",
    ]);
    // Walked the other way, the same relationships in reverse order, directions unchanged.
    expect(ids(finder.findShortestPath("artist", "invoice_line"))).toEqual([
      "album.artist_id->artist.artist_id",
      "track.album_id->album.album_id",
      "invoice_line.track_id->track.track_id",
    ]);
  });

  it("customer → employee by support_rep_id; the reports_to self-reference is no step", () => {
    const finder = createPathFinder(chinook);
    expect(ids(finder.findShortestPath("customer", "employee"))).toEqual([
      "customer.support_rep_id->employee.employee_id",
    ]);
    expect(finder.findShortestPath("employee", "employee")).toEqual([]);
  });

  it("playlist ↔ track through the playlist_track bridge, which bridge discovery adds", () => {
    const finder = createPathFinder(chinook);
    expect(ids(finder.findShortestPath("playlist", "track"))).toEqual([
      "playlist_track.playlist_id->playlist.playlist_id",
      "playlist_track.track_id->track.track_id",
    ]);
    expect(findBridgeTables(chinook, ["playlist", "track"])).toEqual({
      bridges: ["playlist_track"],
      candidates: [{ table: "playlist_track", role: "bridge", connects: ["playlist", "track"], decision: "added" }],
    });
    // genre and media_type meet in track, whose relationship to each other is direct: no bridge.
    expect(findBridgeTables(chinook, ["genre", "media_type", "track"]).bridges).toEqual([]);
  });

  it("keeps to max hops: customer → artist is five joins", () => {
    const finder = createPathFinder(chinook);
    expect(PATH_DEFAULTS.maxHops).toBe(4);
    expect(finder.findShortestPath("customer", "artist")).toBeNull();
    expect(ids(finder.findShortestPath("customer", "artist", { maxHops: 5 }))).toEqual([
      "invoice.customer_id->customer.customer_id",
      "invoice_line.invoice_id->invoice.invoice_id",
      "invoice_line.track_id->track.track_id",
      "track.album_id->album.album_id",
      "album.artist_id->artist.artist_id",
    ]);
    expect(finder.findShortestPath("invoice_line", "artist", { maxHops: 2 })).toBeNull();
    expect(finder.findShortestPath("invoice_line", "artist", { avoidTables: ["album"] })).toBeNull();
  });

  it("prices a hop by confidence and leaves out relationships under the threshold", () => {
    const guessed = applyOverrides(chinook, {
      add_relationships: [
        {
          from_table: "genre",
          from_column: "genre_id",
          to_table: "media_type",
          to_column: "media_type_id",
          confidence: 0.4,
        },
      ],
    }).graph;
    const finder = createPathFinder(guessed);
    // 0.4 is under the default 0.5: genre ← track → media_type, two declared joins.
    expect(ids(finder.findShortestPath("genre", "media_type"))).toEqual([
      "track.genre_id->genre.genre_id",
      "track.media_type_id->media_type.media_type_id",
    ]);
    // Admitted, one hop at 1 + (1 − 0.4) = 1.6 beats two at 1.0 each.
    expect(joinCost(0.4)).toBeCloseTo(1.6);
    expect(ids(finder.findShortestPath("genre", "media_type", { minConfidence: 0.3 }))).toEqual([
      "genre.genre_id->media_type.media_type_id",
    ]);
  });

  it("plans a join tree over several tables by repeated shortest paths", () => {
    const finder = createPathFinder(chinook);
    const plan = finder.planJoins(["artist", "invoice_line", "genre"]);
    expect(plan.tables[0]).toBe("artist");
    expect([...plan.tables].sort()).toEqual(["album", "artist", "genre", "invoice_line", "track"]);
    expect([...plan.addedTables].sort()).toEqual(["album", "track"]);
    expect(plan.unreachable).toEqual([]);
    expect(plan.cost).toBe(4);
    // Each relationship brings in the next listed table, so FROM … JOIN … can follow the order.
    const seen = new Set([plan.tables[0]]);
    plan.relationships.forEach((rel, i) => {
      const next = plan.tables[i + 1];
      expect([rel.from_table, rel.to_table]).toContain(next);
      expect(seen.has(rel.from_table === next ? rel.to_table : rel.from_table)).toBe(true);
      seen.add(next);
    });
    expect(finder.planJoins(["customer", "artist"]).unreachable).toEqual(["artist"]);
    expect(finder.planJoins(["track"])).toMatchObject({ tables: ["track"], relationships: [], cost: 0 });
  });

  it("caches per graph version: same answer object until the graph or the options change", () => {
    const finder = createPathFinder(chinook);
    const first = finder.findShortestPath("invoice_line", "artist");
    expect(finder.findShortestPath("invoice_line", "artist")).toBe(first);
    // Another finder over an equal graph shares the cache: the key is the content hash.
    const twin = createPathFinder(JSON.parse(JSON.stringify(chinook)));
    expect(twin.version).toBe(finder.version);
    expect(twin.findShortestPath("invoice_line", "artist")).toBe(first);
    expect(finder.findShortestPath("invoice_line", "artist", { maxHops: 3 })).not.toBe(first);
    const changed = createPathFinder(
      applyOverrides(chinook, { table_metadata: { album: { role: "instance" } } }).graph,
    );
    expect(changed.version).not.toBe(finder.version);
    expect(changed.findShortestPath("invoice_line", "artist")).not.toBe(first);
    clearPathCache();
    const fresh = finder.findShortestPath("invoice_line", "artist");
    expect(fresh).not.toBe(first);
    expect(fresh).toEqual(first);
    expect(Object.isFrozen(fresh)).toBe(true);
  });

  it("refuses unknown tables and impossible options", () => {
    const finder = createPathFinder(chinook);
    expect(() => finder.findShortestPath("invoice_line", "nope")).toThrow(DomainError);
    expect(() => finder.planJoins(["track", "nope"])).toThrow(/no table nope/);
    expect(() => finder.findShortestPath("track", "album", { maxHops: 0 })).toThrow(DomainError);
    expect(() => finder.findShortestPath("track", "album", { minConfidence: 2 })).toThrow(DomainError);
    expect(() => findBridgeTables(chinook, ["nope"])).toThrow(DomainError);
  });
});

// The design's example ("Example: workTime Query"), with the tables it names. Foreign keys
// everywhere except where a test needs a guessed relationship.
function workTimeCatalog(): SchemaCatalog {
  const t = (name: string, cols: string[], fks: [string, string][] = []) => ({
    schema: "public",
    name,
    comment: null,
    row_estimate: null,
    columns: ["id", ...cols].map((c) => ({ name: c, data_type: "integer", nullable: false, comment: null })),
    primary_key: ["id"],
    unique_keys: [["id"]],
    foreign_keys: fks.map(([col, ref]) => ({
      name: `${name}_${col}_fkey`,
      columns: [col],
      ref_schema: "public",
      ref_table: ref,
      ref_columns: ["id"],
    })),
  });
  return {
    dialect: "mysql",
    tables: [
      t("employeeRole", []),
      t("employee", ["employeeRoleId"], [["employeeRoleId", "employeeRole"]]),
      t("crew", []),
      t(
        "employeeCrew",
        ["employeeId", "crewId"],
        [
          ["employeeId", "employee"],
          ["crewId", "crew"],
        ],
      ),
      t("workTimeType", []),
      t(
        "workTime",
        ["employeeId", "workTimeTypeId", "employeeCrewId"],
        [
          ["employeeId", "employee"],
          ["workTimeTypeId", "workTimeType"],
          ["employeeCrewId", "employeeCrew"],
        ],
      ),
      t(
        "employeeRoleWorkTimeType",
        ["employeeRoleId", "workTimeTypeId"],
        [
          ["employeeRoleId", "employeeRole"],
          ["workTimeTypeId", "workTimeType"],
        ],
      ),
      t("inspectionTemplate", []),
      t("workOrder", []),
      t(
        "inspectionTemplateWorkOrder",
        ["inspectionTemplateId", "workOrderId"],
        [
          ["inspectionTemplateId", "inspectionTemplate"],
          ["workOrderId", "workOrder"],
        ],
      ),
      t(
        "crewWorkOrder",
        ["crewId", "workOrderId"],
        [
          ["crewId", "crew"],
          ["workOrderId", "workOrder"],
        ],
      ),
    ],
  };
}

const WORKTIME_OVERRIDES = {
  table_metadata: {
    employeeCrew: {
      role: "assignment" as const,
      category: "membership",
      exclude_as_bridge_for: ["workTime", "employee"],
      note: "Only for crew membership, not time tracking",
    },
    employeeRoleWorkTimeType: { role: "configuration" as const },
    inspectionTemplateWorkOrder: { role: "bridge" as const },
    workTime: { role: "instance" as const },
    crewWorkOrder: { role: "instance" as const, exclude_as_bridge_for: ["workOrder"] },
  },
};

describe("bridge discovery and plans on the design's workTime example", () => {
  const plain = buildJoinGraph(workTimeCatalog());
  const { graph, problems } = applyOverrides(plain, WORKTIME_OVERRIDES);

  it("employees with work time between Oct 6-12: three tables, no bridges", () => {
    expect(problems).toEqual([]);
    const selected = ["employee", "workTime", "workTimeType"];
    const found = findBridgeTables(graph, selected);
    expect(found.bridges).toEqual([]);
    // employeeCrew touches employee and workTime; its role keeps it out (layer 1).
    expect(found.candidates).toEqual([
      { table: "employeeCrew", role: "assignment", connects: ["employee", "workTime"], decision: "role" },
    ]);
    const plan = createPathFinder(graph).planJoins(selected);
    expect(plan.tables).toEqual(["employee", "workTime", "workTimeType"]);
    expect(plan.relationships.map((r) => r.id)).toEqual([
      "workTime.employeeId->employee.id",
      "workTime.workTimeTypeId->workTimeType.id",
    ]);
    expect(plan.addedTables).toEqual([]);
  });

  it("without roles, the direct relationship alone keeps employeeCrew out (layer 3)", () => {
    const found = findBridgeTables(plain, ["employee", "workTime", "workTimeType"]);
    expect(found.bridges).toEqual([]);
    expect(found.candidates.map((c) => [c.table, c.decision])).toEqual([["employeeCrew", "direct_path"]]);
  });

  it("adds a bridge table where no direct relationship exists, and never a satellite, assignment or configuration one", () => {
    expect(findBridgeTables(graph, ["inspectionTemplate", "workOrder"])).toEqual({
      bridges: ["inspectionTemplateWorkOrder"],
      candidates: [
        {
          table: "inspectionTemplateWorkOrder",
          role: "bridge",
          connects: ["inspectionTemplate", "workOrder"],
          decision: "added",
        },
      ],
    });
    expect(findBridgeTables(graph, ["employeeRole", "workTimeType"]).candidates).toEqual([
      {
        table: "employeeRoleWorkTimeType",
        role: "configuration",
        connects: ["employeeRole", "workTimeType"],
        decision: "role",
      },
    ]);
    expect(findBridgeTables(plain, ["employeeRole", "workTimeType"]).bridges).toEqual(["employeeRoleWorkTimeType"]);
  });

  it("honours exclude_as_bridge_for (layer 2)", () => {
    expect(findBridgeTables(plain, ["crew", "workOrder"]).bridges).toEqual(["crewWorkOrder"]);
    expect(findBridgeTables(graph, ["crew", "workOrder"]).candidates).toEqual([
      { table: "crewWorkOrder", role: "instance", connects: ["crew", "workOrder"], decision: "excluded_for" },
    ]);
  });

  it("paths do not pass through tables the roles keep out, unless told to ignore roles", () => {
    const finder = createPathFinder(graph);
    // The configuration table is the short way; the plan goes round by instance data instead.
    expect(ids(finder.findShortestPath("employeeRole", "workTimeType"))).toEqual([
      "employee.employeeRoleId->employeeRole.id",
      "workTime.employeeId->employee.id",
      "workTime.workTimeTypeId->workTimeType.id",
    ]);
    expect(ids(finder.findShortestPath("employeeRole", "workTimeType", { respectRoles: false }))).toEqual([
      "employeeRoleWorkTimeType.employeeRoleId->employeeRole.id",
      "employeeRoleWorkTimeType.workTimeTypeId->workTimeType.id",
    ]);
    expect(finder.planJoins(["employeeRole", "workTimeType"]).addedTables).toEqual(["employee", "workTime"]);
    // A table the roles keep out of the middle can still be where a path starts or ends.
    expect(ids(finder.findShortestPath("employeeCrew", "crew"))).toEqual(["employeeCrew.crewId->crew.id"]);
    // crewWorkOrder may not bridge for workOrder: crew → workOrder has no other way.
    expect(finder.findShortestPath("crew", "workOrder")).toBeNull();
    expect(createPathFinder(plain).findShortestPath("crew", "workOrder")).toHaveLength(2);
  });
});
