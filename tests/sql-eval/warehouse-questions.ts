// Everyday questions about the demo warehouse (Northwind, Chinook, Pagila), written as a user
// would type them, each with hand-written reference SQL that was run on the warehouse to check it.
// References follow the sql-eval conventions (../../../shared/datasets/sql-eval/README.md): a
// list in braces `{a, b}` accepts any non-empty subset of those columns, `;` separates
// acceptable alternatives, and an answer may carry extra columns. A reference names only what
// the question asks for (the label and the figure), so a fuller answer is not marked wrong.

export type WarehouseCategory =
  | "filter"
  | "date"
  | "count"
  | "distinct_count"
  | "sum_avg"
  | "min_max"
  | "group_by"
  | "having"
  | "top_n"
  | "ratio"
  | "join"
  | "follow_up";

export interface WarehouseQuestion {
  question: string;
  /** Reference SQL on the warehouse (schemas `northwind`, `chinook`, `pagila`). */
  query: string;
  category: WarehouseCategory;
  /** The question asks for an order (top-N, "sorted by"): rows must come in the reference's order. */
  ordered: boolean;
  /** Earlier turns of the same conversation, asked first; only the last answer is graded. */
  before?: string[];
}

const q = (
  category: WarehouseCategory,
  question: string,
  query: string,
  options: { ordered?: boolean; before?: string[] } = {},
): WarehouseQuestion => ({ question, query, category, ordered: options.ordered ?? false, before: options.before });

export const WAREHOUSE_QUESTIONS: WarehouseQuestion[] = [
  // ── filters of every kind ────────────────────────────────────────────────────────────────
  q(
    "filter",
    "Which customers are based in Germany?",
    "SELECT {company_name, customer_id} FROM northwind.customers WHERE country = 'Germany'",
  ),
  q(
    "filter",
    "List the products that cost more than 50 dollars",
    "SELECT {product_name, product_id} FROM northwind.products WHERE unit_price > 50",
  ),
  q(
    "filter",
    "Which products have a unit price between 20 and 30?",
    "SELECT {product_name, product_id} FROM northwind.products WHERE unit_price BETWEEN 20 AND 30",
  ),
  q(
    "filter",
    "Show the suppliers located in France, Italy or Spain",
    "SELECT {company_name, supplier_id} FROM northwind.suppliers WHERE country IN ('France', 'Italy', 'Spain')",
  ),
  q(
    "filter",
    "Which artists have a name starting with 'The'?",
    "SELECT {name, artist_id} FROM chinook.artist WHERE name LIKE 'The %'",
  ),
  q(
    "filter",
    "Which products are discontinued?",
    "SELECT {product_name, product_id} FROM northwind.products WHERE discontinued = 1",
  ),
  q(
    "filter",
    "List the films rated PG-13 that are longer than 180 minutes",
    "SELECT {title, film_id} FROM pagila.film WHERE rating = 'PG-13' AND length > 180",
  ),
  q(
    "filter",
    "Which employees are not sales representatives?",
    "SELECT {last_name, employee_id} FROM northwind.employees WHERE title <> 'Sales Representative'",
  ),
  q(
    "filter",
    "Which products are out of stock?",
    "SELECT {product_name, product_id} FROM northwind.products WHERE units_in_stock = 0",
  ),
  q(
    "filter",
    "Which artists have no albums?",
    "SELECT {a.name, a.artist_id} FROM chinook.artist a WHERE NOT EXISTS (SELECT 1 FROM chinook.album al WHERE al.artist_id = a.artist_id)",
  ),
  q(
    "filter",
    "Which customers have no orders?",
    "SELECT {c.company_name, c.customer_id} FROM northwind.customers c WHERE NOT EXISTS (SELECT 1 FROM northwind.orders o WHERE o.customer_id = c.customer_id)",
  ),

  // ── dates ────────────────────────────────────────────────────────────────────────────────
  q(
    "date",
    "How many orders were placed in 1997?",
    "SELECT COUNT(*) FROM northwind.orders WHERE order_date >= '1997-01-01' AND order_date < '1998-01-01'",
  ),
  q(
    "date",
    "How many orders were placed in March 1998?",
    "SELECT COUNT(*) FROM northwind.orders WHERE order_date >= '1998-03-01' AND order_date < '1998-04-01'",
  ),
  q(
    "date",
    "What were the total invoice sales in the year 2023?",
    "SELECT SUM(total) FROM chinook.invoice WHERE invoice_date >= '2023-01-01' AND invoice_date < '2024-01-01'",
  ),
  q(
    "date",
    "How many rentals were made between 1 May 2022 and 31 May 2022?",
    "SELECT COUNT(*) FROM pagila.rental WHERE rental_date >= '2022-05-01' AND rental_date < '2022-06-01'",
  ),
  q(
    "date",
    "How many orders were shipped late, after their required date?",
    "SELECT COUNT(*) FROM northwind.orders WHERE shipped_date > required_date",
  ),
  q(
    "date",
    "Number of orders per year",
    "SELECT EXTRACT(YEAR FROM order_date) AS year, COUNT(*) FROM northwind.orders GROUP BY 1 ORDER BY 1",
  ),
  q(
    "date",
    "How many orders were placed each month of 1997?",
    "SELECT EXTRACT(MONTH FROM order_date) AS month, COUNT(*) FROM northwind.orders WHERE order_date >= '1997-01-01' AND order_date < '1998-01-01' GROUP BY 1 ORDER BY 1",
  ),
  q(
    "date",
    "Which employees were hired after 1993?",
    "SELECT {last_name, employee_id} FROM northwind.employees WHERE hire_date >= '1994-01-01'",
  ),

  // ── counts and distinct counts ───────────────────────────────────────────────────────────
  q(
    "count",
    "How many tracks are there in the Rock genre?",
    "SELECT COUNT(*) FROM chinook.track t JOIN chinook.genre g ON g.genre_id = t.genre_id WHERE g.name = 'Rock'",
  ),
  q("count", "How many customers are there?", "SELECT COUNT(*) FROM northwind.customers"),
  q("count", "How many films are there in the catalogue?", "SELECT COUNT(*) FROM pagila.film"),
  q(
    "count",
    "How many albums does AC/DC have?",
    "SELECT COUNT(*) FROM chinook.album al JOIN chinook.artist ar ON ar.artist_id = al.artist_id WHERE ar.name = 'AC/DC'",
  ),
  q("count", "How many customers are from the USA?", "SELECT COUNT(*) FROM northwind.customers WHERE country = 'USA'"),
  q(
    "distinct_count",
    "How many different countries do our customers come from?",
    "SELECT COUNT(DISTINCT country) FROM northwind.customers",
  ),
  q(
    "distinct_count",
    "How many distinct customers placed an order in 1998?",
    "SELECT COUNT(DISTINCT customer_id) FROM northwind.orders WHERE order_date >= '1998-01-01' AND order_date < '1999-01-01'",
  ),
  q("distinct_count", "How many distinct composers are there?", "SELECT COUNT(DISTINCT composer) FROM chinook.track"),

  // ── sums, averages, min and max ──────────────────────────────────────────────────────────
  q("sum_avg", "What is the total freight of all orders?", "SELECT SUM(freight) FROM northwind.orders"),
  q("sum_avg", "What is the average unit price of products?", "SELECT AVG(unit_price) FROM northwind.products"),
  q("sum_avg", "What is the average film length?", "SELECT AVG(length) FROM pagila.film"),
  q("sum_avg", "What is the total amount of all payments?", "SELECT SUM(amount) FROM pagila.payment"),
  q(
    "sum_avg",
    "What is the average invoice total for customers in Brazil?",
    "SELECT AVG(i.total) FROM chinook.invoice i JOIN chinook.customer c ON c.customer_id = i.customer_id WHERE c.country = 'Brazil'",
  ),
  q(
    "min_max",
    "What is the longest film?",
    "SELECT {title, film_id} FROM pagila.film WHERE length = (SELECT MAX(length) FROM pagila.film)",
  ),
  q("min_max", "What is the highest product unit price?", "SELECT MAX(unit_price) FROM northwind.products"),
  q("min_max", "When was the first order placed?", "SELECT MIN(order_date) FROM northwind.orders"),
  q("min_max", "What is the smallest payment amount?", "SELECT MIN(amount) FROM pagila.payment"),
  q(
    "min_max",
    "Which is the cheapest product?",
    "SELECT {product_name, product_id} FROM northwind.products WHERE unit_price = (SELECT MIN(unit_price) FROM northwind.products)",
  ),

  // ── grouping, including by numbers and years ─────────────────────────────────────────────
  q(
    "group_by",
    "How many customers are there in each country?",
    "SELECT country, COUNT(*) FROM northwind.customers GROUP BY country",
  ),
  q(
    "group_by",
    "Number of tracks per genre",
    "SELECT {g.name, g.genre_id}, COUNT(*) FROM chinook.track t JOIN chinook.genre g ON g.genre_id = t.genre_id GROUP BY g.name, g.genre_id",
  ),
  q("group_by", "Average film length by rating", "SELECT rating, AVG(length) FROM pagila.film GROUP BY rating"),
  q(
    "group_by",
    "Total sales per invoice year",
    "SELECT EXTRACT(YEAR FROM invoice_date) AS year, SUM(total) FROM chinook.invoice GROUP BY 1",
  ),
  q(
    "group_by",
    "How many films are there for each rental duration?",
    "SELECT rental_duration, COUNT(*) FROM pagila.film GROUP BY rental_duration",
  ),
  q(
    "group_by",
    "Number of products per category",
    "SELECT {c.category_name, c.category_id}, COUNT(*) FROM northwind.products p JOIN northwind.categories c ON c.category_id = p.category_id GROUP BY c.category_name, c.category_id",
  ),
  q(
    "group_by",
    "What was the total freight per shipper in 1997?",
    "SELECT {s.company_name, s.shipper_id}, SUM(o.freight) FROM northwind.orders o JOIN northwind.shippers s ON s.shipper_id = o.ship_via WHERE o.order_date >= '1997-01-01' AND o.order_date < '1998-01-01' GROUP BY s.company_name, s.shipper_id",
  ),
  q(
    "group_by",
    "Total payments per staff member",
    "SELECT {s.first_name, s.last_name, s.staff_id}, SUM(p.amount) FROM pagila.payment p JOIN pagila.staff s ON s.staff_id = p.staff_id GROUP BY s.first_name, s.last_name, s.staff_id",
  ),

  // ── HAVING ───────────────────────────────────────────────────────────────────────────────
  q(
    "having",
    "Which countries have more than 5 customers?",
    "SELECT country FROM northwind.customers GROUP BY country HAVING COUNT(*) > 5",
  ),
  q(
    "having",
    "Which genres have more than 100 tracks?",
    "SELECT {g.name, g.genre_id} FROM chinook.track t JOIN chinook.genre g ON g.genre_id = t.genre_id GROUP BY g.name, g.genre_id HAVING COUNT(*) > 100",
  ),
  q(
    "having",
    "Which customers placed more than 20 orders?",
    "SELECT {c.company_name, c.customer_id} FROM northwind.orders o JOIN northwind.customers c ON c.customer_id = o.customer_id GROUP BY c.company_name, c.customer_id HAVING COUNT(*) > 20",
  ),

  // ── top-N and bottom-N in varied phrasing ────────────────────────────────────────────────
  q(
    "top_n",
    "Top 5 products by units in stock",
    "SELECT product_name, units_in_stock FROM northwind.products ORDER BY units_in_stock DESC LIMIT 5",
    { ordered: true },
  ),
  q(
    "top_n",
    "What are the 3 most expensive products?",
    "SELECT product_name, unit_price FROM northwind.products ORDER BY unit_price DESC LIMIT 3",
    { ordered: true },
  ),
  q(
    "top_n",
    "Top 3 customers by total invoice amount",
    "SELECT {c.first_name, c.last_name, c.customer_id}, SUM(i.total) AS total FROM chinook.customer c JOIN chinook.invoice i ON i.customer_id = c.customer_id GROUP BY c.first_name, c.last_name, c.customer_id ORDER BY total DESC LIMIT 3",
    { ordered: true },
  ),
  q(
    "top_n",
    "Which 3 countries have the most customers?",
    "SELECT country, COUNT(*) AS n FROM northwind.customers GROUP BY country ORDER BY n DESC LIMIT 3",
    // France and Germany tie at 11: the three are certain, their order is not.
    { ordered: false },
  ),
  q(
    "top_n",
    "Show the 5 longest tracks",
    "SELECT name, milliseconds FROM chinook.track ORDER BY milliseconds DESC LIMIT 5",
    { ordered: true },
  ),
  q(
    "top_n",
    "Which genre has the fewest tracks?",
    "SELECT {g.name, g.genre_id} FROM chinook.track t JOIN chinook.genre g ON g.genre_id = t.genre_id GROUP BY g.name, g.genre_id ORDER BY COUNT(*) ASC LIMIT 1",
  ),
  q(
    "top_n",
    "Top 3 employees with the most orders",
    "SELECT {e.last_name, e.employee_id}, COUNT(*) AS n FROM northwind.orders o JOIN northwind.employees e ON e.employee_id = o.employee_id GROUP BY e.last_name, e.employee_id ORDER BY n DESC LIMIT 3",
    { ordered: true },
  ),
  q(
    "top_n",
    "Which 5 film categories have the most films?",
    "SELECT {c.name, c.category_id}, COUNT(*) AS n FROM pagila.film_category fc JOIN pagila.category c ON c.category_id = fc.category_id GROUP BY c.name, c.category_id ORDER BY n DESC LIMIT 5",
    { ordered: true },
  ),

  // ── ratios and percentages ───────────────────────────────────────────────────────────────
  q(
    "ratio",
    "What percentage of products are discontinued?",
    "SELECT 100.0 * COUNT(*) FILTER (WHERE discontinued = 1) / COUNT(*) FROM northwind.products",
  ),
  q(
    "ratio",
    "What share of orders were shipped to Germany?",
    "SELECT 100.0 * COUNT(*) FILTER (WHERE ship_country = 'Germany') / COUNT(*) FROM northwind.orders;SELECT 1.0 * COUNT(*) FILTER (WHERE ship_country = 'Germany') / COUNT(*) FROM northwind.orders",
  ),
  q(
    "ratio",
    "What fraction of films are rated R?",
    "SELECT 1.0 * COUNT(*) FILTER (WHERE rating = 'R') / COUNT(*) FROM pagila.film;SELECT 100.0 * COUNT(*) FILTER (WHERE rating = 'R') / COUNT(*) FROM pagila.film",
  ),

  // ── joins ────────────────────────────────────────────────────────────────────────────────
  q(
    "join",
    "Which products does the supplier Exotic Liquids provide?",
    "SELECT {p.product_name, p.product_id} FROM northwind.products p JOIN northwind.suppliers s ON s.supplier_id = p.supplier_id WHERE s.company_name = 'Exotic Liquids'",
  ),
  q(
    "join",
    "Which albums did Queen release?",
    "SELECT {al.title, al.album_id} FROM chinook.album al JOIN chinook.artist ar ON ar.artist_id = al.artist_id WHERE ar.name = 'Queen'",
  ),
  q(
    "join",
    "In which films does the actor Penelope Guiness appear?",
    "SELECT {f.title, f.film_id} FROM pagila.film f JOIN pagila.film_actor fa ON fa.film_id = f.film_id JOIN pagila.actor a ON a.actor_id = fa.actor_id WHERE a.first_name = 'PENELOPE' AND a.last_name = 'GUINESS'",
  ),
  q(
    "join",
    "How many customers does each support rep look after?",
    "SELECT {e.last_name, e.employee_id}, COUNT(*) FROM chinook.customer c JOIN chinook.employee e ON e.employee_id = c.support_rep_id GROUP BY e.last_name, e.employee_id",
  ),
  q(
    "join",
    "Total units sold per product category",
    "SELECT {c.category_name, c.category_id}, SUM(d.quantity) FROM northwind.order_details d JOIN northwind.products p ON p.product_id = d.product_id JOIN northwind.categories c ON c.category_id = p.category_id GROUP BY c.category_name, c.category_id",
  ),

  // ── follow-ups: the second turn is graded ────────────────────────────────────────────────
  q(
    "follow_up",
    "What about 1996?",
    "SELECT {s.company_name, s.shipper_id}, SUM(o.freight) FROM northwind.orders o JOIN northwind.shippers s ON s.shipper_id = o.ship_via WHERE o.order_date >= '1996-01-01' AND o.order_date < '1997-01-01' GROUP BY s.company_name, s.shipper_id",
    { before: ["What was the total freight per shipper in 1997?"] },
  ),
  q(
    "follow_up",
    "And in 1998?",
    "SELECT {s.company_name, s.shipper_id}, COUNT(*) FROM northwind.orders o JOIN northwind.shippers s ON s.shipper_id = o.ship_via WHERE o.order_date >= '1998-01-01' AND o.order_date < '1999-01-01' GROUP BY s.company_name, s.shipper_id",
    { before: ["How many orders did each shipper deliver in 1997?"] },
  ),
  q("follow_up", "And only Germany", "SELECT COUNT(*) FROM northwind.customers WHERE country = 'Germany'", {
    before: ["How many customers are there?"],
  }),
  q(
    "follow_up",
    "What about the Jazz genre?",
    "SELECT COUNT(*) FROM chinook.track t JOIN chinook.genre g ON g.genre_id = t.genre_id WHERE g.name = 'Jazz'",
    { before: ["How many tracks are there in the Rock genre?"] },
  ),
];
