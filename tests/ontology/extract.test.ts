import { describe, expect, it } from "vitest";
import { DomainRegistry, type ExtractedTerm, extractTerms } from "@/lib/ontology";
import { DESIGN_DOMAIN_JSON } from "./design-registries";

const DESIGN = DomainRegistry.parse(JSON.parse(DESIGN_DOMAIN_JSON));

const structural = (synonyms?: string[]) => ({
  entity: "thing",
  ...(synonyms ? { synonyms } : {}),
  resolution: { primary: { table: "t", match_type: "structural" } },
});

const REGISTRY = DomainRegistry.parse({
  version: 1,
  terms: {
    products: structural(),
    discontinued_products: structural(["discontinued items"]),
    categories: structural(),
    order: structural(),
    order_lines: structural(["line items"]),
    sales_representatives: structural(["sales reps"]),
    films_rated_pg: structural(["pg films"]),
    box: structural(),
    customers_in_germany: structural(["german customers"]),
    germany: structural(),
  },
});

const terms = (found: ExtractedTerm[]) => found.map((t) => t.term);

describe("extractTerms", () => {
  it("finds the design's example terms", () => {
    expect(terms(extractTerms("Find cranes with action items", DESIGN))).toEqual(["crane", "action_item"]);
    expect(terms(extractTerms("Find inspection questions for forklifts", DESIGN))).toEqual(["inspection_questions"]);
  });

  it("ignores case and reports the question's own words and where they are", () => {
    const question = "Show me all CRANES and Action-Items";
    const [crane, item] = extractTerms("Show me all CRANES and Action Items", DESIGN);
    expect(crane).toEqual({ term: "crane", matched: "CRANES", start: 12, end: 18, via: "term" });
    expect(item).toMatchObject({ term: "action_item", matched: "Action Items", via: "term" });
    // A hyphen joins words into one: "Action-Items" is not the two words "action items".
    expect(terms(extractTerms(question, DESIGN))).toEqual(["crane"]);
  });

  it("folds plurals both ways", () => {
    expect(terms(extractTerms("which category has the most product?", REGISTRY))).toEqual(["categories", "products"]);
    expect(terms(extractTerms("ship the boxes", REGISTRY))).toEqual(["box"]);
    expect(terms(extractTerms("orders by sales rep", REGISTRY))).toEqual(["order", "sales_representatives"]);
    expect(terms(extractTerms("The order's lines", REGISTRY))).toEqual(["order_lines"]);
  });

  it("matches whole words only", () => {
    expect(extractTerms("reorder the productsheet; craneflies", REGISTRY)).toEqual([]);
    expect(extractTerms("a crane-fly is not a crane", DESIGN).map((t) => t.matched)).toEqual(["crane"]);
  });

  it("takes the longest phrase and never lets two matches share a word", () => {
    const found = extractTerms("How many discontinued products are in each category?", REGISTRY);
    expect(found.map((t) => [t.term, t.matched])).toEqual([
      ["discontinued_products", "discontinued products"],
      ["categories", "category"],
    ]);
    // "customers in germany" covers "germany"; the shorter term does not match inside it.
    expect(terms(extractTerms("list customers in Germany", REGISTRY))).toEqual(["customers_in_germany"]);
    expect(terms(extractTerms("sales in Germany", REGISTRY))).toEqual(["germany"]);
    // "order lines" (2 words) beats "order" + nothing; "line items" is a synonym of the same term.
    expect(terms(extractTerms("order lines and line items", REGISTRY))).toEqual(["order_lines"]);
  });

  it("prefers the longer of two overlapping phrases even when the shorter starts first", () => {
    const registry = DomainRegistry.parse({
      version: 1,
      terms: { red_wine: structural(), wine_from_france: structural() },
    });
    const found = extractTerms("red wine from France", registry);
    expect(found.map((t) => t.matched)).toEqual(["wine from France"]);
  });

  it("finds synonyms and names the term they stand for, once per term", () => {
    const found = extractTerms("German customers buying discontinued items; more german customers", REGISTRY);
    expect(found).toEqual([
      { term: "customers_in_germany", matched: "German customers", start: 0, end: 16, via: "synonym" },
      expect.objectContaining({ term: "discontinued_products", matched: "discontinued items", via: "synonym" }),
    ]);
  });

  it("keeps PG and PG-13 apart", () => {
    expect(terms(extractTerms("list PG films", REGISTRY))).toEqual(["films_rated_pg"]);
    expect(terms(extractTerms("list PG-13 films", REGISTRY))).toEqual([]);
    expect(terms(extractTerms("films rated PG-13", REGISTRY))).toEqual([]);
  });

  it("finds nothing in a question without terms, or an empty one", () => {
    expect(extractTerms("What is the weather like?", REGISTRY)).toEqual([]);
    expect(extractTerms("", REGISTRY)).toEqual([]);
  });
});
