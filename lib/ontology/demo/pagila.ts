import type { DisplayRegistry, DomainRegistry } from "../contract";

// Pagila (shared/datasets/sql/sakila, the PostgreSQL port of Sakila): a DVD rental chain.

export const PAGILA_DOMAIN: DomainRegistry = {
  version: 1,
  terms: {
    films_rated_pg: {
      entity: "film",
      description: "Films with the MPAA rating PG (not PG-13).",
      synonyms: ["pg films", "pg rated films", "pg movies"],
      resolution: {
        primary: { table: "pagila.film", column: "rating", match_type: "exact", value: "PG", confidence: 1 },
      },
    },
    horror_films: {
      entity: "film",
      synonyms: ["horror movies"],
      resolution: {
        primary: {
          table: "pagila.category",
          tables: ["pagila.film", "pagila.film_category"],
          column: "name",
          match_type: "exact",
          value: "Horror",
          confidence: 0.95,
        },
      },
    },
    active_customers: {
      entity: "customer",
      description: "Customers whose account is active (customer.activebool).",
      synonyms: ["active members"],
      resolution: {
        primary: { table: "pagila.customer", column: "activebool", match_type: "boolean", value: true, confidence: 1 },
      },
    },
    unreturned_rentals: {
      entity: "rental",
      description: "Rentals whose DVD has not come back (no return date).",
      synonyms: ["open rentals", "outstanding rentals", "rentals not returned"],
      resolution: {
        primary: {
          table: "pagila.rental",
          column: "return_date",
          match_type: "exact",
          operator: "IS NULL",
          confidence: 0.95,
        },
      },
    },
    long_films: {
      entity: "film",
      description: "The business's own definition: films running longer than 150 minutes.",
      synonyms: ["long movies"],
      resolution: {
        primary: {
          table: "pagila.film",
          column: "length",
          match_type: "exact",
          operator: ">",
          value: 150,
          confidence: 0.9,
        },
      },
    },
    film_cast: {
      entity: "actor",
      description: "Films with the actors who appear in them.",
      synonyms: ["cast", "film actors"],
      resolution: {
        primary: {
          tables: ["pagila.film", "pagila.film_actor", "pagila.actor"],
          match_type: "structural",
          confidence: 0.95,
        },
      },
    },
  },
};

export const PAGILA_DISPLAY: DisplayRegistry = {
  version: 1,
  description: "Display attributes for the Pagila schema",
  tables: {
    "pagila.film": {
      display_columns: ["film_id", "title", "release_year", "rating", "length"],
      primary_label: ["title"],
    },
    "pagila.actor": {
      display_columns: ["actor_id", "first_name", "last_name"],
      primary_label: ["first_name", "last_name"],
    },
    "pagila.category": { display_columns: ["category_id", "name"], primary_label: ["name"] },
    "pagila.customer": {
      display_columns: ["customer_id", "first_name", "last_name", "email", "activebool"],
      primary_label: ["first_name", "last_name"],
    },
    // Never the password or picture columns: display columns are also what leaves the database.
    "pagila.staff": {
      display_columns: ["staff_id", "first_name", "last_name", "email", "store_id"],
      primary_label: ["first_name", "last_name"],
    },
    "pagila.rental": { display_columns: ["rental_id", "rental_date", "return_date", "customer_id", "inventory_id"] },
    "pagila.payment": { display_columns: ["payment_id", "customer_id", "amount", "payment_date"] },
  },
};
