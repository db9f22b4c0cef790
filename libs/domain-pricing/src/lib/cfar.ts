import type { Plan } from './catalog/plans.catalog';
import { CFAR_WINDOW_DAYS } from './catalog/rates.table';
import { formatDayNumber } from './dates';

export interface CfarStatus {
  readonly eligible: boolean;
  /** Plain-words explanation for plans that offer CFAR; null for plans that do not. */
  readonly note: string | null;
}

/**
 * Cancel-for-any-reason rule: a plan with `cfar` offers it only when bought within 21 days after the first
 * trip deposit, day 21 included (the quote date `today` stands for the purchase date). Without a deposit date
 * we cannot tell, so CFAR is not promised. A deposit dated after `today` is within the window: buying before
 * the deposit satisfies "within 21 days of the first deposit".
 */
export function cfarStatus(plan: Plan, todayDay: number, depositDay: number | null): CfarStatus {
  if (!plan.cfar) return { eligible: false, note: null };
  if (depositDay === null) {
    return {
      eligible: false,
      note: `Cancel-for-any-reason requires purchase within ${CFAR_WINDOW_DAYS} days of your first trip deposit; tell us your deposit date to confirm.`,
    };
  }
  const deadline = depositDay + CFAR_WINDOW_DAYS;
  const deposit = formatDayNumber(depositDay);
  if (todayDay <= deadline) {
    return {
      eligible: true,
      note: `Cancel-for-any-reason available: buy by ${formatDayNumber(deadline)} (${CFAR_WINDOW_DAYS} days after your deposit on ${deposit}).`,
    };
  }
  return {
    eligible: false,
    note: `Cancel-for-any-reason not available: the ${CFAR_WINDOW_DAYS}-day window after your deposit on ${deposit} closed on ${formatDayNumber(deadline)}.`,
  };
}
