// The one UI stack of the widget iframe and the operator portal: Preact, these helpers, and tokens.css.
export { formatMoney, formatWholeAmount } from './money';
