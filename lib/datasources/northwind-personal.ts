import type { SqlRunner } from "./script-loader";

// Northwind's employees carry what a real HR table would protect. After the load these fields
// exist only as pgcrypto ciphertext (pgp_sym_encrypt, bytea); `northwind.secure_employees`
// decrypts them with the session key `vigil.warehouse_key`, which the connector sets per
// transaction. Without the key, or with a wrong one, the view shows NULL for them.
//
// Personal: birth date, home address and postal code, home phone, the biographical notes and the
// photo. Kept in the clear: names, job title and courtesy title, hire date, office extension,
// manager, and city/region/country — the coarse location sales reports group by.

export const PERSONAL_FIELDS = ["birth_date", "address", "postal_code", "home_phone", "notes", "photo"] as const;

const TEXT_FIELDS = PERSONAL_FIELDS.filter((f) => f !== "photo");

/** The view's columns, in the table's original order; personal ones decrypted. */
const VIEW_COLUMNS = [
  "employee_id",
  "last_name",
  "first_name",
  "title",
  "title_of_courtesy",
  "vigil_warehouse.decrypt_personal(birth_date_encrypted)::date as birth_date",
  "hire_date",
  "vigil_warehouse.decrypt_personal(address_encrypted)::varchar(60) as address",
  "city",
  "region",
  "vigil_warehouse.decrypt_personal(postal_code_encrypted)::varchar(10) as postal_code",
  "country",
  "vigil_warehouse.decrypt_personal(home_phone_encrypted)::varchar(24) as home_phone",
  "extension",
  "vigil_warehouse.decrypt_personal_bytes(photo_encrypted) as photo",
  "vigil_warehouse.decrypt_personal(notes_encrypted) as notes",
  "reports_to",
  "photo_path",
];

/** The decrypting functions, calling pgcrypto where it is installed (`crypto`, a schema name). */
const decryptFunctions = (crypto: string) => `
create or replace function vigil_warehouse.decrypt_personal(data bytea) returns text
language plpgsql stable as $$
declare
  key text := nullif(current_setting('vigil.warehouse_key', true), '');
begin
  if data is null or key is null then return null; end if;
  return ${crypto}.pgp_sym_decrypt(data, key);
exception when others then
  -- A wrong key reads as no key: the view shows NULL instead of failing the whole query.
  return null;
end $$;

create or replace function vigil_warehouse.decrypt_personal_bytes(data bytea) returns bytea
language plpgsql stable as $$
declare
  key text := nullif(current_setting('vigil.warehouse_key', true), '');
begin
  if data is null or key is null then return null; end if;
  return ${crypto}.pgp_sym_decrypt_bytea(data, key);
exception when others then
  return null;
end $$;`;

/**
 * Encrypts the personal fields in place, drops the plaintext columns and creates the secure view.
 * `crypto` is the schema pgcrypto is installed in: the embedded warehouse's own, or wherever the
 * server database has it (Vigil's migrations install it there, once per database).
 */
export async function protectNorthwindEmployees(tx: SqlRunner, key: string, crypto: string): Promise<void> {
  await tx.exec(decryptFunctions(crypto));
  await tx.exec(
    `alter table northwind.employees ${PERSONAL_FIELDS.map((f) => `add column ${f}_encrypted bytea`).join(", ")}`,
  );
  await tx.query(
    `update northwind.employees set ${TEXT_FIELDS.map(
      (f) => `${f}_encrypted = ${crypto}.pgp_sym_encrypt(${f}::text, $1)`,
    ).join(", ")}, photo_encrypted = ${crypto}.pgp_sym_encrypt_bytea(photo, $1)`,
    [key],
  );
  await tx.exec(`alter table northwind.employees ${PERSONAL_FIELDS.map((f) => `drop column ${f}`).join(", ")}`);
  await tx.exec(
    `create view northwind.secure_employees as select ${VIEW_COLUMNS.join(", ")} from northwind.employees;
     comment on view northwind.secure_employees is
       'northwind.employees with the personal fields decrypted by the session key vigil.warehouse_key (NULL without it)'`,
  );
}
