"use client";

import { type KeyboardEvent, useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Field } from "@/components/ui/Field";
import { Input } from "@/components/ui/Input";
import { checkDomain, MAX_DOMAINS_PER_DOCUMENT } from "./api";

/**
 * The document's knowledge domains: the known ones as checkable chips, and a new one typed in
 * (checked for the domain's form and the per-document limit before it is added and picked).
 */
export function DomainPicker({
  options,
  selected,
  onToggle,
  onAdd,
  error,
  onError,
  disabled,
  needed,
}: {
  options: string[];
  selected: string[];
  onToggle: (domain: string, on: boolean) => void;
  /** A new domain, already checked: it joins the options and is picked. */
  onAdd: (domain: string) => void;
  error: string | null;
  onError: (problem: string | null) => void;
  disabled: boolean;
  /** A file is chosen and no domain is: say one is needed before Upload is pressed. */
  needed: boolean;
}) {
  const id = useId();
  const [newDomain, setNewDomain] = useState("");

  function add() {
    const checked = checkDomain(newDomain);
    if ("problem" in checked) {
      onError(checked.problem);
      return;
    }
    if (!selected.includes(checked.domain) && selected.length >= MAX_DOMAINS_PER_DOCUMENT) {
      onError(`A document belongs to at most ${MAX_DOMAINS_PER_DOCUMENT} domains.`);
      return;
    }
    onAdd(checked.domain);
    setNewDomain("");
    onError(null);
  }

  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      add();
    }
  }

  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="text-sm font-medium">Knowledge domains</legend>
      {needed && !error && (
        <p data-testid="domain-needed" className="text-sm text-amber-700 dark:text-amber-300">
          Choose at least one knowledge domain for this document.
        </p>
      )}
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Agents search the domains they are given; every agent also searches <code>guide</code>.
      </p>
      {options.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {options.map((domain) => (
            <label
              key={domain}
              className="inline-flex items-center gap-1.5 rounded-full border border-slate-300 px-3 py-1 text-sm has-checked:border-brand-500 has-checked:bg-brand-50 dark:border-slate-700 dark:has-checked:bg-slate-800"
            >
              <input
                type="checkbox"
                checked={selected.includes(domain)}
                onChange={(e) => {
                  onToggle(domain, e.target.checked);
                  onError(null);
                }}
                className="accent-brand-600"
              />
              {domain}
            </label>
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-500">No domains yet: add the first one below.</p>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <Field label="New domain" id={`${id}-new`}>
          <Input
            value={newDomain}
            onChange={(e) => {
              setNewDomain(e.target.value);
              onError(null);
            }}
            onKeyDown={onKey}
            maxLength={32}
            placeholder="e.g. medical-devices"
            aria-describedby={error ? `${id}-domain-error` : undefined}
            aria-invalid={error ? true : undefined}
          />
        </Field>
        <Button variant="outline" onClick={add}>
          Add domain
        </Button>
      </div>
      {error && (
        <p id={`${id}-domain-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
