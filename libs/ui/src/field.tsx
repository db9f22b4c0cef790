import type {
  ComponentChildren,
  InputHTMLAttributes,
  PartialInputHTMLAttributes,
  PartialSelectHTMLAttributes,
} from 'preact';
import { useId } from 'preact/hooks';

/*
 * TextField / SelectField (engineer U, portal UI): label, control, hint and error wired together (for,
 * aria-describedby, aria-invalid). `id` is optional (a stable one is generated). See form-field.tsx (F) for the
 * render-prop Field used by the widget frame.
 */

interface FieldFrame {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  id?: string;
  class?: string;
}

function useFieldIds(id: string | undefined) {
  const generated = useId();
  const controlId = id ?? `f${generated}`;
  return { controlId, hintId: `${controlId}-hint`, errorId: `${controlId}-error` };
}

function describedBy(hint: unknown, error: unknown, ids: { hintId: string; errorId: string }): string | undefined {
  const parts = [hint ? ids.hintId : '', error ? ids.errorId : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

function FieldText({
  hint,
  error,
  ids,
}: {
  hint?: ComponentChildren;
  error?: string | null;
  ids: { hintId: string; errorId: string };
}) {
  return (
    <>
      {hint ? (
        <span class="svc-hint" id={ids.hintId}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span class="svc-error" id={ids.errorId}>
          {error}
        </span>
      ) : null}
    </>
  );
}

export type TextFieldProps = FieldFrame &
  Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'label' | 'role' | 'id' | 'class'>;

/** A labelled input (`.svc-field` of tokens.css) with its hint and inline error tied to it. */
export function TextField({ label, hint, error, id, class: extra, ...input }: TextFieldProps) {
  const ids = useFieldIds(id);
  return (
    <div class={`svc-field${extra ? ` ${extra}` : ''}`}>
      <label for={ids.controlId}>{label}</label>
      <input
        {...(input as InputHTMLAttributes<HTMLInputElement>)}
        id={ids.controlId}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(hint, error, ids)}
      />
      <FieldText hint={hint} error={error} ids={ids} />
    </div>
  );
}

export type SelectFieldProps = FieldFrame &
  Omit<PartialSelectHTMLAttributes<HTMLSelectElement>, 'label' | 'role' | 'id' | 'class'> & {
    options?: { value: string; label: string }[];
    children?: ComponentChildren;
  };

/** A labelled select with its hint and inline error tied to it; `options` or `<option>` children. */
export function SelectField({ label, hint, error, id, class: extra, options, children, ...select }: SelectFieldProps) {
  const ids = useFieldIds(id);
  return (
    <div class={`svc-field${extra ? ` ${extra}` : ''}`}>
      <label for={ids.controlId}>{label}</label>
      <select
        {...select}
        id={ids.controlId}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(hint, error, ids)}
      >
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {children}
      </select>
      <FieldText hint={hint} error={error} ids={ids} />
    </div>
  );
}
