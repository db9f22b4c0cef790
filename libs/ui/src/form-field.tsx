import type { ComponentChildren } from 'preact';

/** The ARIA wiring of one form control: its id, whether it is invalid and which hint/error texts describe it. */
export interface FieldAria {
  id: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

/** Ids a Field gives its hint and error, so a control outside the Field (a group) can be described by them too. */
export const fieldHintId = (id: string): string => `${id}-hint`;
export const fieldErrorId = (id: string): string => `${id}-error`;

export function fieldAria(id: string, error?: string, hint?: string): FieldAria {
  const describedBy = [hint ? fieldHintId(id) : '', error ? fieldErrorId(id) : ''].filter(Boolean).join(' ');
  return {
    id,
    ...(error ? { 'aria-invalid': 'true' as const } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
}

export interface FieldProps {
  id: string;
  label: ComponentChildren;
  hint?: string;
  error?: string;
  class?: string;
  /** Renders the control with the ARIA props (spread them on the input/select). */
  children: (aria: FieldAria) => ComponentChildren;
}

/** A labelled control with its hint and its inline error tied to it (aria-describedby, aria-invalid). */
export function Field({ id, label, hint, error, children, class: className }: FieldProps) {
  return (
    <div class={className ? `svc-field ${className}` : 'svc-field'}>
      <label for={id}>{label}</label>
      {children(fieldAria(id, error, hint))}
      {hint ? (
        <span class="svc-hint" id={fieldHintId(id)}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span class="svc-error" id={fieldErrorId(id)}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
