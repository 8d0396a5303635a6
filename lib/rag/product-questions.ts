/**
 * Whether a question is about Vigil itself, and so may be answered from the product's user
 * guide. The rule is meant to be read by people: the question names the product, or one of its
 * features by the name the guide uses for it. A domain question ("What goes into a PBRER?") names
 * none of them, so an expert answers it from its own domains only and never quotes the guide.
 */
const PRODUCT_WORDS = [
  "vigil",
  "app",
  "api keys?",
  "apikey",
  "bearer token",
  "inbox",
  "review queue",
  "reviewers?",
  "citations?",
  "citation badges?",
  "knowledge base",
  "upload(?:s|ed|ing)?",
  "offline engine",
  "safety levels?",
  "tenants?",
  "experts?",
  "sign(?:ing)? in",
  "passwords?",
];

const PRODUCT_QUESTION = new RegExp(`\\b(?:${PRODUCT_WORDS.join("|")})\\b`, "i");

export function isAboutTheProduct(question: string): boolean {
  return PRODUCT_QUESTION.test(question);
}
