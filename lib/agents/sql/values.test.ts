import { describe, expect, it } from "vitest";
import { buildValueIndex, findValueMentions, nearestValue } from "./values";

const index = buildValueIndex([
  { table: "northwind.customers", column: "country", values: ["Brazil", "Germany", "France", "Spain"] },
  { table: "chinook.genre", column: "name", values: ["Rock", "Jazz", "Rock And Roll", "Blues", "Latin"] },
  { table: "pagila.category", column: "name", values: ["Comedy", "Comedic"] },
]);

describe("values in the data, spelled nearly", () => {
  it("finds the one value a near spelling means, and nothing when two are as near or the word is short", () => {
    expect(nearestValue("Brasil", index)).toBe("brazil");
    expect(nearestValue("Germny", index)).toBe("germany");
    expect(nearestValue("Rock n Roll", index)).toBe("rock and roll");
    expect(nearestValue("Rock and Roll music", index)).toBeNull(); // four words: not the three-word value
    // "Comedia" is one edit from "comedic" and two from "comedy": the nearer wins; a tie is no guess.
    expect(nearestValue("Comedia", index)).toBe("comedic");
    expect(nearestValue("Comedi", index)).toBeNull();
    // Short words, other first letters and numbers are never guessed.
    expect(nearestValue("Jaz", index)).toBeNull();
    expect(nearestValue("Frances", index)).toBe("france");
    expect(nearestValue("Prance", index)).toBeNull();
    expect(nearestValue("Spain2", index)).toBeNull();
  });

  it("takes exact values first and near ones only for words nothing else placed", () => {
    const wanted = new Set(["brasil", "rock", "customer"]);
    const mentions = findValueMentions("How many Rock customers are in Brasil?", index, wanted);
    expect(mentions.map((m) => [m.text, m.hits[0].value, m.near === true])).toEqual([
      ["Rock", "Rock", false],
      ["Brasil", "Brazil", true],
    ]);
    // A word placed by the schema ("customers") is no misspelt value.
    expect(findValueMentions("customers in Brasil", index, new Set(["customer"]))).toEqual([]);
  });
});
