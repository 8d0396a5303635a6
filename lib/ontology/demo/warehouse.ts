import type { DisplayRegistry, DomainRegistry } from "../contract";
import { CHINOOK_DISPLAY, CHINOOK_DOMAIN } from "./chinook";
import { NORTHWIND_DISPLAY, NORTHWIND_DOMAIN } from "./northwind";
import { PAGILA_DISPLAY, PAGILA_DOMAIN } from "./pagila";

export interface DemoOntology {
  /** The demo warehouse's schema these registries describe. */
  schema: "northwind" | "chinook" | "pagila";
  domain: DomainRegistry;
  display: DisplayRegistry;
}

/**
 * The demo warehouse's registries, one pair per schema. The three schemas share everyday words
 * ("customers" is a table in each), and a registry gives a term one meaning, so whoever
 * registers the warehouse scopes each pair to its schema (one source per schema, or the
 * schema the question was routed to) rather than merging them.
 */
export const DEMO_ONTOLOGY: readonly DemoOntology[] = [
  { schema: "northwind", domain: NORTHWIND_DOMAIN, display: NORTHWIND_DISPLAY },
  { schema: "chinook", domain: CHINOOK_DOMAIN, display: CHINOOK_DISPLAY },
  { schema: "pagila", domain: PAGILA_DOMAIN, display: PAGILA_DISPLAY },
];
