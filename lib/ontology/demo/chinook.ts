import type { DisplayRegistry, DomainRegistry } from "../contract";

// Chinook (shared/datasets/sql/chinook): a digital music store's catalogue, customers and invoices.

export const CHINOOK_DOMAIN: DomainRegistry = {
  version: 1,
  terms: {
    rock_tracks: {
      entity: "track",
      description: "Tracks of the Rock genre; the looser reading also takes Rock And Roll.",
      synonyms: ["rock songs", "rock music"],
      resolution: {
        primary: {
          table: "chinook.genre",
          tables: ["chinook.track"],
          column: "name",
          match_type: "exact",
          value: "Rock",
          confidence: 0.95,
        },
        secondary: {
          table: "chinook.genre",
          tables: ["chinook.track"],
          column: "name",
          match_type: "text_search",
          value: "rock",
          confidence: 0.5,
        },
      },
    },
    customers: {
      entity: "customer",
      description: "The store's customers (the table is named customer).",
      synonyms: ["clients", "buyers"],
      resolution: {
        primary: { tables: ["chinook.customer"], match_type: "structural", confidence: 0.95 },
      },
    },
    video_tracks: {
      entity: "track",
      description: "Tracks sold as video files (the media type's name says video).",
      synonyms: ["videos", "music videos"],
      resolution: {
        primary: {
          table: "chinook.media_type",
          tables: ["chinook.track"],
          column: "name",
          match_type: "text_search",
          value: "video",
          confidence: 0.9,
        },
      },
    },
    sales_support_agents: {
      entity: "employee",
      description: "Employees who look after customers (customer.support_rep_id points to them).",
      synonyms: ["support reps", "support agents"],
      resolution: {
        primary: {
          table: "chinook.employee",
          column: "title",
          match_type: "exact",
          value: "Sales Support Agent",
          confidence: 0.95,
        },
      },
    },
    playlist_tracks: {
      entity: "playlist",
      synonyms: ["playlist songs"],
      resolution: {
        primary: {
          tables: ["chinook.playlist", "chinook.playlist_track", "chinook.track"],
          match_type: "structural",
          confidence: 0.95,
        },
      },
    },
    invoice_lines: {
      entity: "invoice",
      description: "Invoices with the tracks each one bought.",
      synonyms: ["invoice items", "line items"],
      resolution: {
        primary: { tables: ["chinook.invoice", "chinook.invoice_line"], match_type: "structural", confidence: 0.95 },
      },
    },
  },
};

export const CHINOOK_DISPLAY: DisplayRegistry = {
  version: 1,
  description: "Display attributes for the Chinook schema",
  tables: {
    "chinook.artist": { display_columns: ["artist_id", "name"], primary_label: ["name"] },
    "chinook.album": { display_columns: ["album_id", "title", "artist_id"], primary_label: ["title"] },
    "chinook.track": {
      display_columns: ["track_id", "name", "composer", "milliseconds", "unit_price"],
      primary_label: ["name"],
    },
    "chinook.genre": { display_columns: ["genre_id", "name"], primary_label: ["name"] },
    "chinook.media_type": { display_columns: ["media_type_id", "name"], primary_label: ["name"] },
    "chinook.playlist": { display_columns: ["playlist_id", "name"], primary_label: ["name"] },
    "chinook.customer": {
      display_columns: ["customer_id", "first_name", "last_name", "company", "country", "email"],
      primary_label: ["first_name", "last_name"],
    },
    "chinook.employee": {
      display_columns: ["employee_id", "first_name", "last_name", "title"],
      primary_label: ["first_name", "last_name"],
    },
    "chinook.invoice": {
      display_columns: ["invoice_id", "customer_id", "invoice_date", "billing_country", "total"],
      primary_label: ["invoice_id"],
    },
  },
};
