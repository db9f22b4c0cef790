import { PRICED_CURRENCIES, QUOTE_LIMITS } from '@expedition/contracts/rules';
import { Field } from '@expedition/ui';
import type { TargetedEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  builtCountryOptions,
  countryName,
  countryOptions,
  DESTINATIONS,
  isCountryCode,
  US_STATES,
  type Country,
} from '../regions';
import { useTexts } from '../texts';
import { resizeAges, type FieldName, type FormErrors, type FormValues } from '../validation';

export interface QuoteFormProps {
  values: FormValues;
  errors: FormErrors;
  busy: boolean;
  /** "Get prices" before the first quote, "Update prices" after. */
  submitLabel: string;
  onChange: (values: FormValues) => void;
  onSubmit: () => void;
}

type InputEvent = TargetedEvent<HTMLInputElement | HTMLSelectElement, Event>;

/**
 * The residence choices. Every country (named by Intl, sorted) is the costliest part of the form's first render (the
 * document's first Intl object loads ICU's data), and a closed select shows only its chosen option: so the first
 * render lists that one (if any), and the whole list comes in a task of its own right after the form is on screen
 * (effects run after the paint), so the form's other effects (the svc:form-visible mark, quote.ready) go first.
 * Later renders (a language switch) build theirs at once; each language's list is built once per document.
 */
function useCountries(intl: string, selected: string): readonly Country[] {
  const painted = useRef(false);
  const [, rerender] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      painted.current = true;
      rerender(true);
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  const list = builtCountryOptions(intl) ?? (painted.current ? countryOptions(intl) : undefined);
  if (list) return list;
  return isCountryCode(selected) ? [{ code: selected, name: countryName(selected, intl) }] : [];
}

export function QuoteForm({ values, errors, busy, submitLabel, onChange, onSubmit }: QuoteFormProps) {
  const { t, intl } = useTexts();
  const f = t.form;
  const countries = useCountries(intl, values.residence);
  const destinationName = t.destinations as Record<string, (() => string) | undefined>;
  const set = (name: Exclude<FieldName, `age-${number}`>) => (e: InputEvent) => {
    const value = e.currentTarget.value;
    onChange(
      name === 'travelers'
        ? { ...values, travelers: value, ages: resizeAges(values.ages, value) }
        : { ...values, [name]: value },
    );
  };
  const setAge = (i: number) => (e: InputEvent) => {
    const ages = [...values.ages];
    ages[i] = e.currentTarget.value;
    onChange({ ...values, ages });
  };
  const currencies = (PRICED_CURRENCIES as readonly string[]).includes(values.currency)
    ? PRICED_CURRENCIES
    : [...PRICED_CURRENCIES, values.currency];

  return (
    <form
      class="svc-form"
      noValidate
      aria-label={f.label()}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Field id="svc-destination" label={f.destination()} error={errors.destination} class="svc-span-2">
        {(aria) => (
          <select {...aria} name="destination" value={values.destination} onChange={set('destination')} required>
            <option value="">{f.choose()}</option>
            {DESTINATIONS.map((d) => (
              <option key={d.slug} value={d.slug}>
                {destinationName[d.slug]?.() ?? d.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="svc-startDate" label={f.departure()} error={errors.startDate}>
        {(aria) => (
          <input {...aria} type="date" name="startDate" value={values.startDate} onInput={set('startDate')} required />
        )}
      </Field>
      <Field id="svc-endDate" label={f.return()} error={errors.endDate}>
        {(aria) => (
          <input
            {...aria}
            type="date"
            name="endDate"
            value={values.endDate}
            onInput={set('endDate')}
            min={values.startDate || undefined}
            required
          />
        )}
      </Field>
      <Field id="svc-travelers" label={f.travelers()} error={errors.travelers}>
        {(aria) => (
          <input
            {...aria}
            type="number"
            name="travelers"
            inputMode="numeric"
            min={1}
            max={QUOTE_LIMITS.maxTravelers}
            step={1}
            value={values.travelers}
            onInput={set('travelers')}
            required
          />
        )}
      </Field>
      <fieldset class="svc-ages svc-span-2">
        <legend>{f.ages()}</legend>
        <div class="svc-ages__list">
          {values.ages.map((age, i) => (
            <Field key={i} id={`svc-age-${i}`} label={f.travelerNumber({ number: i + 1 })} error={errors[`age-${i}`]}>
              {(aria) => (
                <input
                  {...aria}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={QUOTE_LIMITS.maxTravelerAge}
                  step={1}
                  value={age}
                  onInput={setAge(i)}
                  required
                />
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      <Field id="svc-tripCost" label={f.tripCost()} hint={f.tripCostHint()} error={errors.tripCost}>
        {(aria) => (
          <input
            {...aria}
            type="text"
            name="tripCost"
            inputMode="decimal"
            autoComplete="off"
            value={values.tripCost}
            onInput={set('tripCost')}
            required
          />
        )}
      </Field>
      <Field id="svc-currency" label={f.currency()} error={errors.currency}>
        {(aria) => (
          <select {...aria} name="currency" value={values.currency} onChange={set('currency')}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="svc-residence" label={f.residence()} error={errors.residence}>
        {(aria) => (
          <select
            {...aria}
            name="residence"
            autoComplete="country"
            value={values.residence}
            onChange={set('residence')}
            required
          >
            <option value="">{f.choose()}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {values.residence === 'US' ? (
        <Field id="svc-state" label={f.usState()} error={errors.state}>
          {(aria) => (
            <select
              {...aria}
              name="state"
              autoComplete="address-level1"
              value={values.state}
              onChange={set('state')}
              required
            >
              <option value="">{f.choose()}</option>
              {US_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <Field id="svc-email" label={f.email()} hint={f.emailHint()} error={errors.email}>
        {(aria) => (
          <input
            {...aria}
            type="email"
            name="email"
            autoComplete="email"
            value={values.email}
            onInput={set('email')}
            required
          />
        )}
      </Field>
      <Field id="svc-name" label={f.name()} error={errors.name}>
        {(aria) => (
          <input {...aria} type="text" name="name" autoComplete="name" value={values.name} onInput={set('name')} />
        )}
      </Field>
      <div class="svc-form__actions svc-span-2">
        <button type="submit" class="svc-btn" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          {busy ? t.page.gettingPrices() : submitLabel}
        </button>
      </div>
    </form>
  );
}
