// The SQL analyst's registries per data source (the design's "Domain Ontology System" and
// "Display Attributes System"): business terms mapped to tables, filters and confidences, and
// the columns and labels a table is shown with. Storage and the admin editor live elsewhere;
// this folder validates, checks against a catalog, extracts, resolves and applies.
import "server-only";

export { type CatalogCheck, checkRegistryAgainstCatalog } from "./catalog-check";
export {
  DEFAULT_CONFIDENCE,
  DisplayRegistry,
  type DomainFilter,
  DomainRegistry,
  type DomainResolution,
  FILTER_OPERATORS,
  type FilterOperator,
  MATCH_TYPES,
  type MatchType,
  RESOLUTION_STRATEGIES,
  type RegistryIssue,
  type RegistryParse,
  type ResolutionStrategy,
} from "./contract";
export { DEMO_ONTOLOGY, type DemoOntology } from "./demo/warehouse";
export { applyDisplayAttributes, displayColumnsFor, primaryLabelFor } from "./display";
export { type ExtractedTerm, extractTerms } from "./extract";
export { issuePath, parseDisplayRegistry, parseDomainRegistry } from "./parse";
export { singular } from "./phrases";
export { type ResolveInput, resolveTerms } from "./resolve";
