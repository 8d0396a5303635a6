import { describe, expect, it } from "vitest";
import { looksLikeSlug, readableName } from "@/lib/words";

describe("internal names as words", () => {
  it("splits snake, kebab and camel case into a sentence-case phrase", () => {
    expect(readableName("proposed_next_action")).toBe("Proposed next action");
    expect(readableName("responseText")).toBe("Response text");
    expect(readableName("work-time-type")).toBe("Work time type");
    expect(readableName("XMLHttpRequest")).toBe("XML HTTP request");
  });

  it("keeps abbreviations in capitals, and ordinary short words in lower case", () => {
    expect(readableName("lgv_troubleshooting")).toBe("LGV troubleshooting");
    expect(readableName("sql_query")).toBe("SQL query");
    expect(readableName("fda_meeting_type")).toBe("FDA meeting type");
    expect(readableName("customer_id")).toBe("Customer ID");
    expect(readableName("sort_by_type")).toBe("Sort by type");
    expect(readableName("try_it")).toBe("Try it");
    expect(readableName("neo4j_node")).toBe("Neo4j node");
  });

  it("tells a slug from a name a person wrote", () => {
    expect(looksLikeSlug("lgv-troubleshooting")).toBe(true);
    expect(looksLikeSlug("site_survey")).toBe(true);
    expect(looksLikeSlug("Dock entrance checklist")).toBe(false);
    expect(looksLikeSlug("Manual")).toBe(false);
  });
});
