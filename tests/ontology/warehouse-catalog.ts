import type { CatalogColumn, CatalogTable, SqlCatalog } from "@/lib/sql";

// The demo warehouse's tables that the demo registries name, with every column and the type
// PostgreSQL's information_schema reports, written from the CREATE TABLE statements of
// shared/datasets/sql (northwind/northwind.sql, chinook/Chinook_PostgreSql.sql,
// sakila/pagila-schema.sql). `warehouse-catalog.test.ts` compares the names with those scripts.

const VARCHAR = "character varying";
const TIMESTAMPTZ = "timestamp with time zone";

function table(schema: string, name: string, columns: string): CatalogTable {
  const parsed: CatalogColumn[] = columns
    .trim()
    .split(/\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [column, ...type] = line.split(/\s+/);
      const dataType = type
        .join(" ")
        .replace(/^varchar$/, VARCHAR)
        .replace(/^timestamptz$/, TIMESTAMPTZ);
      return { name: column, dataType };
    });
  return { schema, name, columns: parsed };
}

const northwind = [
  table("northwind", "categories", "category_id smallint\ncategory_name varchar\ndescription text\npicture bytea"),
  table(
    "northwind",
    "customers",
    `customer_id varchar
    company_name varchar
    contact_name varchar
    contact_title varchar
    address varchar
    city varchar
    region varchar
    postal_code varchar
    country varchar
    phone varchar
    fax varchar`,
  ),
  table(
    "northwind",
    "employees",
    `employee_id smallint
    last_name varchar
    first_name varchar
    title varchar
    title_of_courtesy varchar
    birth_date date
    hire_date date
    address varchar
    city varchar
    region varchar
    postal_code varchar
    country varchar
    home_phone varchar
    extension varchar
    photo bytea
    notes text
    reports_to smallint
    photo_path varchar`,
  ),
  table(
    "northwind",
    "order_details",
    "order_id smallint\nproduct_id smallint\nunit_price real\nquantity smallint\ndiscount real",
  ),
  table(
    "northwind",
    "orders",
    `order_id smallint
    customer_id varchar
    employee_id smallint
    order_date date
    required_date date
    shipped_date date
    ship_via smallint
    freight real
    ship_name varchar
    ship_address varchar
    ship_city varchar
    ship_region varchar
    ship_postal_code varchar
    ship_country varchar`,
  ),
  table(
    "northwind",
    "products",
    `product_id smallint
    product_name varchar
    supplier_id smallint
    category_id smallint
    quantity_per_unit varchar
    unit_price real
    units_in_stock smallint
    units_on_order smallint
    reorder_level smallint
    discontinued integer`,
  ),
  table("northwind", "shippers", "shipper_id smallint\ncompany_name varchar\nphone varchar"),
  table(
    "northwind",
    "suppliers",
    `supplier_id smallint
    company_name varchar
    contact_name varchar
    contact_title varchar
    address varchar
    city varchar
    region varchar
    postal_code varchar
    country varchar
    phone varchar
    fax varchar
    homepage text`,
  ),
];

const chinook = [
  table("chinook", "album", "album_id integer\ntitle varchar\nartist_id integer"),
  table("chinook", "artist", "artist_id integer\nname varchar"),
  table(
    "chinook",
    "customer",
    `customer_id integer
    first_name varchar
    last_name varchar
    company varchar
    address varchar
    city varchar
    state varchar
    country varchar
    postal_code varchar
    phone varchar
    fax varchar
    email varchar
    support_rep_id integer`,
  ),
  table(
    "chinook",
    "employee",
    `employee_id integer
    last_name varchar
    first_name varchar
    title varchar
    reports_to integer
    birth_date timestamp without time zone
    hire_date timestamp without time zone
    address varchar
    city varchar
    state varchar
    country varchar
    postal_code varchar
    phone varchar
    fax varchar
    email varchar`,
  ),
  table("chinook", "genre", "genre_id integer\nname varchar"),
  table(
    "chinook",
    "invoice",
    `invoice_id integer
    customer_id integer
    invoice_date timestamp without time zone
    billing_address varchar
    billing_city varchar
    billing_state varchar
    billing_country varchar
    billing_postal_code varchar
    total numeric`,
  ),
  table(
    "chinook",
    "invoice_line",
    "invoice_line_id integer\ninvoice_id integer\ntrack_id integer\nunit_price numeric\nquantity integer",
  ),
  table("chinook", "media_type", "media_type_id integer\nname varchar"),
  table("chinook", "playlist", "playlist_id integer\nname varchar"),
  table("chinook", "playlist_track", "playlist_id integer\ntrack_id integer"),
  table(
    "chinook",
    "track",
    `track_id integer
    name varchar
    album_id integer
    media_type_id integer
    genre_id integer
    composer varchar
    milliseconds integer
    bytes integer
    unit_price numeric`,
  ),
];

const pagila = [
  table("pagila", "actor", "actor_id integer\nfirst_name text\nlast_name text\nlast_update timestamptz"),
  table("pagila", "category", "category_id integer\nname text\nlast_update timestamptz"),
  table(
    "pagila",
    "customer",
    `customer_id integer
    store_id integer
    first_name text
    last_name text
    email text
    address_id integer
    activebool boolean
    create_date date
    last_update timestamptz
    active integer`,
  ),
  // rating is the mpaa_rating enum and release_year the `year` domain over integer.
  table(
    "pagila",
    "film",
    `film_id integer
    title text
    description text
    release_year integer
    language_id integer
    original_language_id integer
    rental_duration smallint
    rental_rate numeric
    length smallint
    replacement_cost numeric
    rating USER-DEFINED
    last_update timestamptz
    special_features ARRAY
    fulltext tsvector`,
  ),
  table("pagila", "film_actor", "actor_id integer\nfilm_id integer\nlast_update timestamptz"),
  table("pagila", "film_category", "film_id integer\ncategory_id integer\nlast_update timestamptz"),
  table(
    "pagila",
    "payment",
    "payment_id integer\ncustomer_id integer\nstaff_id integer\nrental_id integer\namount numeric\npayment_date timestamptz",
  ),
  table(
    "pagila",
    "rental",
    `rental_id integer
    rental_date timestamptz
    inventory_id integer
    customer_id integer
    return_date timestamptz
    staff_id integer
    last_update timestamptz`,
  ),
  table(
    "pagila",
    "staff",
    `staff_id integer
    first_name text
    last_name text
    address_id integer
    email text
    store_id integer
    active boolean
    username text
    password text
    last_update timestamptz
    picture bytea`,
  ),
];

export const WAREHOUSE: SqlCatalog = { tables: [...northwind, ...chinook, ...pagila] };

/** One schema of the warehouse, as a source scoped to it would see it. */
export function schemaCatalog(schema: string): SqlCatalog {
  return { tables: WAREHOUSE.tables.filter((t) => t.schema === schema) };
}
