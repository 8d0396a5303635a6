import type { ComponentProps } from "react";
import { cn } from "./cn";

// A table that is a table from `md` up and a stack of cards below it: on a phone each row is a
// card, each cell a line with its column's name before it (`label`), and the row's actions on
// their own line, so nothing hides in a side-scroll. The roles are written out because a table
// laid out as blocks loses its implicit roles in some browsers' accessibility trees.

export function DataTable({ className, ...props }: ComponentProps<"table">) {
  return (
    <table
      // biome-ignore lint/a11y/noRedundantRoles: kept when CSS lays the table out as cards
      role="table"
      className={cn("block w-full text-left text-sm md:table", className)}
      {...props}
    />
  );
}

/** The header row: read by screen readers everywhere, shown from `md` up. */
export function DataTableHead({ className, ...props }: ComponentProps<"thead">) {
  return (
    <thead
      // biome-ignore lint/a11y/noRedundantRoles: kept when CSS lays the table out as cards
      role="rowgroup"
      className={cn("sr-only text-xs uppercase text-slate-500 md:not-sr-only md:table-header-group", className)}
      {...props}
    />
  );
}

export function DataTableBody({ className, ...props }: ComponentProps<"tbody">) {
  return (
    <tbody
      // biome-ignore lint/a11y/noRedundantRoles: kept when CSS lays the table out as cards
      role="rowgroup"
      className={cn("block space-y-3 md:table-row-group", className)}
      {...props}
    />
  );
}

export function DataTableRow({ className, ...props }: ComponentProps<"tr">) {
  return (
    <tr
      // biome-ignore lint/a11y/noRedundantRoles: kept when CSS lays the table out as cards
      role="row"
      className={cn(
        "block rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900",
        "md:table-row md:rounded-none md:border-x-0 md:border-b-0 md:bg-transparent md:p-0 md:dark:bg-transparent",
        className,
      )}
      {...props}
    />
  );
}

export function DataTableHeader({ className, ...props }: ComponentProps<"th">) {
  return <th className={cn("py-2 pr-3 font-medium", className)} {...props} />;
}

/**
 * A cell; `label` is its column's name, shown before the value on a phone (the header row is
 * hidden there). `actions` puts the cell on its own line at the card's foot.
 */
export function DataTableCell({
  className,
  label,
  actions = false,
  ...props
}: ComponentProps<"td"> & { label?: string; actions?: boolean }) {
  return (
    <td
      // biome-ignore lint/a11y/noRedundantRoles: kept when CSS lays the table out as cards
      role="cell"
      data-label={label}
      className={cn(
        "block py-1 md:table-cell md:py-2 md:pr-3",
        label &&
          "before:mr-2 before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] md:before:content-none",
        actions &&
          "mt-2 border-t border-slate-100 pt-2 md:mt-0 md:border-0 md:pt-2 md:text-right dark:border-slate-800",
        className,
      )}
      {...props}
    />
  );
}
