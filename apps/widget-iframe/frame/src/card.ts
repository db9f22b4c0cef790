import type { WidgetMessages } from '@expedition/i18n/widget';

/** The simulated processor's card form: only the number matters to it, but the form checks what a real one would. */
export interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
}
export type CardErrors = Partial<Record<keyof CardValues, string>>;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const cardDigits = (value: string): string => value.replace(/[\s-]/g, '');

/** `now` decides which expiry dates are past; `m` holds the messages in the traveler's language. */
export function validateCard(values: CardValues, m: WidgetMessages['validation'], now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = cardDigits(values.number);
  if (!digits) errors.number = m.enterCardNumber();
  else if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) errors.number = m.checkCardNumber();
  const exp = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
  if (!values.expiry.trim()) errors.expiry = m.enterExpiry();
  else if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) errors.expiry = m.expiryFormat();
  else {
    const yy = exp[2] ?? '';
    const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
    const month = Number(exp[1]);
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
      errors.expiry = m.cardExpired();
  }
  if (!values.cvc.trim()) errors.cvc = m.enterCvc();
  else if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = m.cvcDigits();
  return errors;
}
