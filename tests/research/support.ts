// The research tests drive runs over knowledge bases of their own with the benchmark's harness
// (bench/support/research-runs.ts), so the tests and bench:research measure the same thing.
export {
  type CorpusDocument,
  normalised,
  type ResearchOutcome,
  type ResearchTenant,
  researchTenant,
  runResearch,
} from "../../bench/support/research-runs";
