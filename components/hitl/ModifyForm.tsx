"use client";

import Form from "@rjsf/core";
import type { IconButtonProps, RJSFSchema, UiSchema } from "@rjsf/utils";
import validator from "@rjsf/validator-ajv8";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { buildEditForm, changedFields, editableFieldsOf, formDataFrom, formValues, type JsonSchema } from "./edit-form";
import { humanize } from "./format";
import { modificationsOf } from "./modifications";

// The core theme's markup (bootstrap class names), styled with Tailwind from the outside.
const formClass = [
  "space-y-3",
  "[&_fieldset]:min-w-0 [&_fieldset]:space-y-3 [&_legend]:mb-1 [&_legend]:text-xs [&_legend]:font-semibold",
  "[&_.form-group]:space-y-1",
  "[&_.control-label]:block [&_.control-label]:text-xs [&_.control-label]:font-medium [&_.control-label]:text-slate-600 dark:[&_.control-label]:text-slate-400",
  "[&_.required]:ml-0.5 [&_.required]:text-red-600",
  "[&_.field-description]:text-xs [&_.field-description]:text-slate-500",
  "[&_.form-control]:w-full [&_.form-control]:rounded-md [&_.form-control]:border [&_.form-control]:border-slate-300 [&_.form-control]:bg-white [&_.form-control]:px-3 [&_.form-control]:py-2 [&_.form-control]:text-sm dark:[&_.form-control]:border-slate-700 dark:[&_.form-control]:bg-slate-900",
  "[&_.rjsf-json_.form-control]:font-mono [&_.rjsf-json_.form-control]:text-xs",
  "[&_.has-error_.form-control]:border-red-500",
  "[&_.error-detail]:text-xs [&_.text-danger]:text-red-600 dark:[&_.text-danger]:text-red-400",
  "[&_.array-item]:flex [&_.array-item]:items-start [&_.array-item]:gap-2 [&_.array-item>div:first-child]:min-w-0 [&_.array-item>div:first-child]:flex-1",
  "[&_.array-item-list]:space-y-2 [&_.btn-group]:flex [&_.btn-group]:gap-1",
].join(" ");

function TextButton({
  label,
  title,
  className,
  iconType: _iconType,
  icon: _icon,
  uiSchema: _uiSchema,
  registry: _registry,
  ...props
}: IconButtonProps & { label: string }) {
  return (
    <Button type="button" variant="outline" size="xs" {...props} title={title} aria-label={title} className={className}>
      {label}
    </Button>
  );
}

const BUTTONS = {
  AddButton: (props: IconButtonProps) => <TextButton {...props} label="+ Add" title="Add an item" />,
  CopyButton: (props: IconButtonProps) => <TextButton {...props} label="Copy" title="Copy this item" />,
  MoveUpButton: (props: IconButtonProps) => <TextButton {...props} label="↑" title="Move up" />,
  MoveDownButton: (props: IconButtonProps) => <TextButton {...props} label="↓" title="Move down" />,
  RemoveButton: (props: IconButtonProps) => <TextButton {...props} label="Remove" title="Remove this item" />,
};

function blurOnEscape(event: KeyboardEvent<HTMLElement>) {
  if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
}

/**
 * Modify and approve for any adapter: a checkpoint type's form comes from its contract; any
 * other adapter's from the schema version the payload reads as, fetched first (without it, the
 * fields are read off the payload and the server's validation still decides).
 */
export function ModifyForm(props: {
  kase: HitlCaseView;
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const { kase } = props;
  const fetchSchema = editableFieldsOf(kase.adapter) === null;
  const { data, isPending } = useQuery({
    queryKey: ["hitl", "adapter-schema", kase.adapter, kase.payloadVersion],
    queryFn: () =>
      apiFetch<{ jsonSchema: JsonSchema }>(
        `/api/hitl/adapters/${encodeURIComponent(kase.adapter)}/versions/${kase.payloadVersion}`,
      ),
    enabled: fetchSchema,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (fetchSchema && isPending) return <p className="text-sm text-slate-500">Loading the form…</p>;
  return <SchemaModifyForm {...props} schema={data?.jsonSchema ?? null} />;
}

/**
 * Modify and approve: a form of the fields the reviewer may change (built from the adapter's JSON
 * Schema, prefilled with the payload), or, behind "Advanced", the payload as JSON. Either way
 * only the changed fields are sent.
 */
function SchemaModifyForm({
  kase,
  schema,
  busy,
  onApprove,
}: {
  kase: HitlCaseView;
  schema: JsonSchema | null;
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const ids = useId();
  const form = useMemo(() => buildEditForm(kase.adapter, kase.payload, schema), [kase.adapter, kase.payload, schema]);
  const editable = editableFieldsOf(kase.adapter);
  const [formData, setFormData] = useState<Record<string, unknown>>(form.formData);
  const [advanced, setAdvanced] = useState(form.fields.length === 0);
  const [draft, setDraft] = useState(() => (form.fields.length === 0 ? JSON.stringify(kase.payload, null, 2) : ""));
  const [problem, setProblem] = useState<string | null>(null);

  function approve(values: Record<string, unknown>) {
    const parsed = formValues(form, values);
    if ("problem" in parsed) return setProblem(parsed.problem);
    const changed = changedFields(kase.payload, parsed.values, form.fields);
    if ("problem" in changed) return setProblem(changed.problem);
    setProblem(null);
    onApprove(changed.modifications);
  }

  function approveJson() {
    const parsed = modificationsOf(kase.payload, draft, editable);
    if ("problem" in parsed) return setProblem(parsed.problem);
    setProblem(null);
    onApprove(parsed.modifications);
  }

  function toggleAdvanced() {
    setProblem(null);
    if (!advanced) {
      // The JSON starts from the payload with the form's edits in it.
      const parsed = formValues(form, formData);
      const edits = "values" in parsed ? parsed.values : {};
      const merged = { ...kase.payload };
      for (const [key, value] of Object.entries(edits)) if (value !== undefined) merged[key] = value;
      setDraft(JSON.stringify(merged, null, 2));
      setAdvanced(true);
      return;
    }
    let edited: unknown;
    try {
      edited = JSON.parse(draft);
    } catch (error) {
      setProblem(`Fix the JSON before going back to the form: ${(error as Error).message}`);
      return;
    }
    if (typeof edited === "object" && edited !== null && !Array.isArray(edited)) {
      setFormData(formDataFrom(form, edited as Record<string, unknown>));
    }
    setAdvanced(false);
  }

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-testid="modify-form">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {editable
            ? `You can change: ${editable.map(humanize).join(", ")}. Only what you change is sent.`
            : "Only what you change is sent."}
          {form.source === "payload" && !advanced && " (Fields read from the payload.)"}
        </p>
        {form.fields.length > 0 && (
          <label className="flex items-center gap-1.5 text-xs">
            <input type="checkbox" checked={advanced} onChange={toggleAdvanced} disabled={busy} />
            Advanced: edit JSON
          </label>
        )}
      </div>

      {!advanced ? (
        <Form
          schema={form.schema as RJSFSchema}
          uiSchema={form.uiSchema as UiSchema}
          formData={formData}
          validator={validator}
          idPrefix={`${ids}-edit`}
          className={formClass}
          templates={{ ButtonTemplates: BUTTONS }}
          disabled={busy}
          noHtml5Validate
          showErrorList={false}
          focusOnFirstError
          onChange={(event) => setFormData((event.formData ?? {}) as Record<string, unknown>)}
          onSubmit={(event) => approve((event.formData ?? {}) as Record<string, unknown>)}
        >
          <Button type="submit" size="sm" disabled={busy} variant="success">
            Approve with changes
          </Button>
        </Form>
      ) : (
        <div className="space-y-2">
          {form.fields.length === 0 && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              No field of this case fits a form; edit its JSON.
            </p>
          )}
          <label htmlFor={`${ids}-draft`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Payload with your changes (JSON; only changed fields are sent)
          </label>
          <Textarea
            id={`${ids}-draft`}
            className="w-full font-mono text-xs"
            rows={12}
            spellCheck={false}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={blurOnEscape}
          />
          <Button size="sm" onClick={approveJson} disabled={busy} variant="success">
            Approve with changes
          </Button>
        </div>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}
