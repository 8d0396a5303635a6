// The design's own examples ("Domain Registry Structure", "Registry Structure"), verbatim: a
// registry written from the design must read as it is.

export const DESIGN_DOMAIN_JSON = `{
  "version": 1,
  "terms": {
    "crane": {
      "entity": "asset",
      "description": "Heavy lifting equipment",
      "resolution": {
        "primary": {
          "table": "asset",
          "columns": ["name", "manufacturer", "modelNumber"],
          "match_type": "text_search",
          "confidence": 0.95
        },
        "secondary": {
          "table": "assetType",
          "column": "name",
          "match_type": "text_search",
          "confidence": 0.5
        }
      }
    },
    "action_item": {
      "entity": "inspection_finding",
      "resolution": {
        "primary": {
          "table": "inspectionQuestionAnswer",
          "column": "isActionItem",
          "match_type": "boolean",
          "value": true,
          "confidence": 1.0
        }
      }
    },
    "inspection_questions": {
      "entity": "inspection_detail",
      "resolution": {
        "primary": {
          "tables": ["inspectionQuestion", "inspectionQuestionAnswer"],
          "match_type": "structural",
          "confidence": 0.95
        }
      }
    }
  }
}`;

export const DESIGN_DISPLAY_JSON = `{
  "version": 1,
  "description": "Display attributes for tables",
  "tables": {
    "asset": {
      "display_columns": ["id", "name", "modelNumber", "serialNumber"],
      "primary_label": ["name"]
    },
    "employee": {
      "display_columns": ["id", "firstName", "lastName", "email"],
      "primary_label": ["firstName", "lastName"]
    },
    "workOrder": {
      "display_columns": ["id", "title", "status", "customerId"],
      "primary_label": ["title"]
    }
  }
}`;

const text = "varchar";
const columns = (...names: string[]) => names.map((name) => ({ name, dataType: text }));

/** The design's tables (a MySQL source, camelCase names), for the catalog check and resolution. */
export const DESIGN_CATALOG = {
  tables: [
    {
      schema: "crewos",
      name: "asset",
      columns: [{ name: "id", dataType: "int" }, ...columns("name", "manufacturer", "modelNumber", "serialNumber")],
    },
    { schema: "crewos", name: "assetType", columns: [{ name: "id", dataType: "int" }, ...columns("name")] },
    { schema: "crewos", name: "inspectionQuestion", columns: [{ name: "id", dataType: "int" }, ...columns("text")] },
    {
      schema: "crewos",
      name: "inspectionQuestionAnswer",
      columns: [
        { name: "id", dataType: "int" },
        { name: "isActionItem", dataType: "boolean" },
      ],
    },
    {
      schema: "crewos",
      name: "employee",
      columns: [{ name: "id", dataType: "int" }, ...columns("firstName", "lastName", "email")],
    },
    {
      schema: "crewos",
      name: "workOrder",
      columns: [{ name: "id", dataType: "int" }, ...columns("title", "status", "customerId")],
    },
  ],
};
