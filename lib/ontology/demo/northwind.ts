import type { DisplayRegistry, DomainRegistry } from "../contract";

// Northwind (shared/datasets/sql/northwind): a food trader's orders, products and staff.
// Terms are business concepts with a fixed meaning in this database; a question's own
// conditions (a year, a customer's name) are for the SQL generator, not the registry.

export const NORTHWIND_DOMAIN: DomainRegistry = {
  version: 1,
  terms: {
    discontinued_products: {
      entity: "product",
      description: "Products no longer sold; Northwind keeps them, flagged discontinued = 1 (an integer flag).",
      synonyms: ["discontinued items", "discontinued lines"],
      resolution: {
        primary: {
          table: "northwind.products",
          column: "discontinued",
          match_type: "boolean",
          value: 1,
          confidence: 1,
        },
      },
    },
    beverages: {
      entity: "product_category",
      description: "Products of the Beverages category: soft drinks, coffees, teas, beers and ales.",
      synonyms: ["drinks"],
      resolution: {
        primary: {
          table: "northwind.categories",
          tables: ["northwind.products"],
          column: "category_name",
          match_type: "text_search",
          value: "Beverages",
          confidence: 0.95,
        },
        secondary: {
          table: "northwind.categories",
          tables: ["northwind.products"],
          column: "description",
          match_type: "text_search",
          value: "drinks",
          confidence: 0.5,
        },
      },
    },
    customers_in_germany: {
      entity: "customer",
      synonyms: ["german customers"],
      resolution: {
        primary: {
          table: "northwind.customers",
          column: "country",
          match_type: "exact",
          value: "Germany",
          confidence: 1,
        },
      },
    },
    unshipped_orders: {
      entity: "order",
      description: "Orders that have not left the warehouse yet (no shipped date).",
      synonyms: ["open orders", "orders not shipped"],
      resolution: {
        primary: {
          table: "northwind.orders",
          column: "shipped_date",
          match_type: "exact",
          operator: "IS NULL",
          confidence: 0.95,
        },
      },
    },
    out_of_stock_products: {
      entity: "product",
      synonyms: ["out of stock", "sold out products"],
      resolution: {
        primary: {
          table: "northwind.products",
          column: "units_in_stock",
          match_type: "exact",
          operator: "<=",
          value: 0,
          confidence: 0.95,
        },
      },
    },
    sales_representatives: {
      entity: "employee",
      synonyms: ["sales reps"],
      resolution: {
        primary: {
          table: "northwind.employees",
          column: "title",
          match_type: "exact",
          value: "Sales Representative",
          confidence: 0.95,
        },
        secondary: {
          table: "northwind.employees",
          column: "title",
          match_type: "text_search",
          value: "sales",
          confidence: 0.5,
        },
      },
    },
    order_lines: {
      entity: "order_detail",
      description: "An order with its product lines (quantity, unit price, discount).",
      synonyms: ["order details", "line items"],
      resolution: {
        primary: {
          tables: ["northwind.orders", "northwind.order_details"],
          match_type: "structural",
          confidence: 0.95,
        },
      },
    },
    shippers: {
      entity: "shipper",
      synonyms: ["carriers", "shipping companies"],
      resolution: {
        primary: { tables: ["northwind.shippers", "northwind.orders"], match_type: "structural", confidence: 0.9 },
      },
    },
  },
};

export const NORTHWIND_DISPLAY: DisplayRegistry = {
  version: 1,
  description: "Display attributes for the Northwind schema",
  tables: {
    "northwind.employees": {
      display_columns: ["employee_id", "first_name", "last_name", "title"],
      primary_label: ["first_name", "last_name"],
    },
    "northwind.customers": {
      display_columns: ["customer_id", "company_name", "contact_name", "city", "country"],
      primary_label: ["company_name"],
    },
    "northwind.products": {
      display_columns: ["product_id", "product_name", "unit_price", "units_in_stock", "discontinued"],
      primary_label: ["product_name"],
    },
    "northwind.categories": {
      display_columns: ["category_id", "category_name", "description"],
      primary_label: ["category_name"],
    },
    "northwind.suppliers": {
      display_columns: ["supplier_id", "company_name", "city", "country"],
      primary_label: ["company_name"],
    },
    "northwind.shippers": {
      display_columns: ["shipper_id", "company_name", "phone"],
      primary_label: ["company_name"],
    },
    "northwind.orders": {
      display_columns: ["order_id", "customer_id", "order_date", "shipped_date", "ship_country"],
      primary_label: ["order_id"],
    },
    // Order lines have no name of their own: shown, never labelled.
    "northwind.order_details": { display_columns: ["order_id", "product_id", "unit_price", "quantity", "discount"] },
  },
};
