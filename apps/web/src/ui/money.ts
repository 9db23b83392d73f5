/**
 * Money as people read it, one formatter for every amount in rupees (issue 41): the server sends
 * rupees beside exact paise; amounts show two decimals (₹67.50, ₹0.08), and a price per hour of a
 * lab shows all four of its decimals (₹0.0547) because that is the price the meter charges.
 */
const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
const price = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** 67.5 → '₹67.50' */
export const formatInr = (rupees: number) => amount.format(rupees);
/** Paise → '₹67.50' */
export const formatPaise = (paise: number) => amount.format(paise / 100);
/** A lab's price, exact to a hundredth of a paisa: 0.0547 → '₹0.0547', 30 → '₹30.00' */
export const formatPrice = (rupees: number) => price.format(rupees);
/** Trainer rates, which spec 02 §9 labels in dollars: 25 → '$25.00' */
export const formatUsd = (amountInDollars: number) => dollars.format(amountInDollars);
/**
 * Beside a trainer's rate: spec 02 §9 labels rates in dollars per hour, while every amount paid on the
 * platform is in rupees (issue 41 found the mix unexplained).
 */
export const RATE_CURRENCY_NOTE =
  'Trainers quote their rates in US dollars per hour; what you pay on this platform (courses, VMs) is in rupees (₹).';
