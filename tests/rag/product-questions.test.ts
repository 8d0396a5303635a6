import { describe, expect, it } from "vitest";
import { GUIDE_DOMAIN, isAboutTheProduct, searchScopeOf } from "@/lib/rag";

describe("questions about the product", () => {
  it.each([
    "How do I create an API key in Vigil?",
    "how do i revoke an api key",
    "What happens in the review inbox when two reviewers decide the same case?",
    "Which file formats can I upload to the knowledge base?",
    "What does a citation badge open?",
    "Which expert should I ask about budget impact?",
    "Who can change an agent's safety level?",
  ])("names the product or a feature of it: %s", (question) => {
    expect(isAboutTheProduct(question)).toBe(true);
    expect(searchScopeOf(["safety"], question)).toEqual(["safety", GUIDE_DOMAIN]);
  });

  it.each([
    "What goes into a PBRER?",
    "What are the benefits of orphan designation?",
    "How is the confidence interval of a non-inferiority margin read?",
    "Which application does a biosimilar need?",
    "What does a serious case report need?",
  ])("keeps a domain question to the agent's own domains: %s", (question) => {
    expect(isAboutTheProduct(question)).toBe(false);
    expect(searchScopeOf(["safety", "safety"], question)).toEqual(["safety"]);
  });

  it("gives an agent without domains of its own the guide alone, never the whole tenant", () => {
    expect(searchScopeOf([], "What goes into a PBRER?")).toEqual([GUIDE_DOMAIN]);
  });
});
