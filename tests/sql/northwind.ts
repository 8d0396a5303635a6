import type { CatalogColumn, CatalogTable, GuardOptions, SecureViewMap, SqlCatalog, SqlDialect } from "@/lib/sql";

const text = "character varying";

const textColumns = (...names: string[]): CatalogColumn[] => names.map((name) => ({ name, dataType: text }));
const table = (name: string, columns: CatalogColumn[]): CatalogTable => ({ schema: "northwind", name, columns });

/** Part of the Northwind sample database (shared/datasets/sql/northwind), as introspection would describe it. */
const typed = (...columns: [string, string][]): CatalogColumn[] =>
  columns.map(([name, dataType]) => ({ name, dataType }));

const employeeColumns = (phone: CatalogColumn): CatalogColumn[] => [
  ...typed(["employee_id", "smallint"]),
  ...textColumns("last_name", "first_name", "title"),
  ...typed(["birth_date", "date"], ["hire_date", "date"]),
  ...textColumns("city", "country"),
  ...typed(["reports_to", "smallint"]),
  phone,
];

/** Part of the Northwind sample database (shared/datasets/sql/northwind), as introspection would describe it. */
export const NORTHWIND: SqlCatalog = {
  tables: [
    table(
      "customers",
      textColumns("customer_id", "company_name", "contact_name", "contact_title", "city", "region", "country", "phone"),
    ),
    // The protected table stores the phone encrypted; its secure view exposes it decrypted.
    table("employees", employeeColumns({ name: "home_phone_enc", dataType: "bytea" })),
    table("secure_employees", employeeColumns({ name: "home_phone", dataType: text })),
    table("orders", [
      ...typed(["order_id", "smallint"], ["customer_id", text], ["employee_id", "smallint"]),
      ...typed(["order_date", "date"], ["required_date", "date"], ["shipped_date", "date"]),
      ...typed(["ship_via", "smallint"], ["freight", "real"], ["ship_city", text], ["ship_country", text]),
    ]),
    table(
      "order_details",
      typed(
        ["order_id", "smallint"],
        ["product_id", "smallint"],
        ["unit_price", "real"],
        ["quantity", "smallint"],
        ["discount", "real"],
      ),
    ),
    table("products", [
      ...typed(["product_id", "smallint"], ["product_name", text], ["supplier_id", "smallint"]),
      ...typed(["category_id", "smallint"], ["unit_price", "real"], ["units_in_stock", "smallint"]),
      ...typed(["discontinued", "integer"]),
    ]),
    table("categories", typed(["category_id", "smallint"], ["category_name", text], ["description", "text"])),
    table("shippers", typed(["shipper_id", "smallint"], ["company_name", text], ["phone", text])),
  ],
};

/** Every table but the protected base, which is only reached through its secure view. */
export const ALLOWED_TABLES = NORTHWIND.tables
  .filter((t) => t.name !== "employees")
  .map((t) => `${t.schema}.${t.name}`);

export const SECURE_VIEWS: SecureViewMap = {
  "northwind.employees": { view: "northwind.secure_employees", encryptedColumns: ["home_phone_enc"] },
};

export const ROW_LIMIT = 500;

export function guardOptions(dialect: SqlDialect): GuardOptions {
  return {
    dialect,
    allowedSchemas: ["northwind"],
    allowedTables: ALLOWED_TABLES,
    secureViews: SECURE_VIEWS,
    rowLimit: ROW_LIMIT,
  };
}
