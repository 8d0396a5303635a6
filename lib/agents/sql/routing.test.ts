import { describe, expect, it } from "vitest";
import { routeQuestion, schemaVocabulary, schemaWordsIn } from "./routing";

// Routing decides on what a question names: the source's tables and columns make it a data
// question even when a word is also a product feature's ("citations"); a how-to about a feature
// goes to the guide even when it has a data question's words ("list").

const table = (name: string, ...columns: string[]) => ({ name, columns: columns.map((c) => ({ name: c })) });

const academic = schemaVocabulary([
  table("publication", "pid", "title", "year", "citation_num", "jid", "abstract"),
  table("cite", "citing", "cited"),
  table("author", "aid", "name", "homepage"),
  table("writes", "aid", "pid"),
  table("journal", "jid", "name"),
]);
const shop = schemaVocabulary([
  table("orders", "order_id", "customer_id", "order_date", "freight", "ship_via"),
  table("customers", "customer_id", "company_name", "country"),
  table("shippers", "shipper_id", "company_name"),
]);

const route = (question: string, vocabulary: ReadonlySet<string> | null, hasIntent = false) =>
  routeQuestion(question, { hasIntent, vocabulary });

describe("routing a question between the data, the guide and a general answer", () => {
  it("sends data questions that contain product words to SQL when the source names them", () => {
    expect(route("How many citations does each publication have?", academic)).toBe("sql");
    expect(route("Title of the publication with the highest number of citations?", academic)).toBe("sql");
    expect(route("Which authors wrote the most publications?", academic)).toBe("sql");
    expect(schemaWordsIn("Title of the publication with the highest number of citations?", academic)).toEqual(
      expect.arrayContaining(["title", "publication", "citation"]),
    );
  });

  it("sends product questions to the guide, even with a data question's words", () => {
    for (const vocabulary of [academic, shop, null]) {
      expect(route("How do I list my API keys?", vocabulary)).toBe("rag");
      expect(route("How can I upload a document to the knowledge base?", vocabulary)).toBe("rag");
      expect(route("Where do reviewers see the review queue?", vocabulary)).toBe("rag");
    }
    expect(route("What are safety levels?", shop)).toBe("rag");
    // A how-to with a data question's words routes to the guide only if it names a feature.
    expect(route("How do I list my API keys?", shop, true)).toBe("rag");
  });

  it("lets the source's own names decide a word that is both a feature and data", () => {
    // The same question is about the data where the source has citations, about the product where not.
    expect(route("Which citations appear most often?", academic)).toBe("sql");
    expect(route("Which citations appear most often?", shop)).toBe("rag");
  });

  it("answers data-shaped questions with SQL and everything else as general", () => {
    expect(route("How many orders did each shipper deliver in 1997?", shop)).toBe("sql");
    expect(route("How do I count the orders of each customer?", shop)).toBe("sql");
    expect(route("Average freight per country", null)).toBe("sql");
    expect(route("Why did revenue dip?", shop)).toBe("sql");
    expect(route("Hello, who are you?", shop)).toBe("general");
    expect(route("What is the capital of France?", shop)).toBe("general");
  });

  it("leaves generic column words out of the vocabulary", () => {
    expect(shop.has("order")).toBe(true);
    expect(shop.has("name")).toBe(false);
    expect(academic.has("name")).toBe(false);
    expect(route("What is the name of the offline engine?", academic)).toBe("rag");
  });
});
