/**
 * Indian identity and banking formats of the trainer's data (spec 02 §5). Values are compared
 * upper-case, as the screens show them.
 */
export const PAN_FORMAT = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
/** 2-digit state code, the holder's PAN, entity number, 'Z', check character. */
export const GSTIN_FORMAT = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
/** 4 letters of the bank, a 0, 6 characters of the branch. */
export const IFSC_FORMAT = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const MICR_FORMAT = /^[0-9]{9}$/;
export const BSR_FORMAT = /^[0-9]{7}$/;
export const IBAN_FORMAT = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
export const STATE_CODE_FORMAT = /^[0-9]{2}$/;
export const ACCOUNT_NUMBER_FORMAT = /^[0-9A-Z]{6,34}$/;

// Verhoeff tables: multiplication (d), permutation (p), inverse is not needed to validate.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** True when the digits (check digit last) pass the Verhoeff checksum. */
export function verhoeffValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let c = 0;
  const reversed = digits.split('').reverse();
  reversed.forEach((ch, i) => {
    const p = P[i % 8]?.[Number(ch)] ?? 0;
    c = D[c]?.[p] ?? 0;
  });
  return c === 0;
}

/** An Aadhar number: 12 digits, not starting with 0 or 1, Verhoeff check digit last (spaces allowed). */
export function aadharValid(value: string): boolean {
  const digits = value.replace(/\s+/g, '');
  return /^[2-9][0-9]{11}$/.test(digits) && verhoeffValid(digits);
}

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A GSTIN's 15th character is a check character over the first 14 (the GST network's mod-36 scheme):
 * each character's value (0-9, A-Z as 10-35) is multiplied by 1 and 2 alternately from the left, each
 * product's base-36 digits are summed, and the check character is (36 - sum mod 36) mod 36. One
 * mistyped character always changes it, so such a GSTIN is refused before it is printed on a receipt.
 */
export function gstinValid(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^[0-9A-Z]{15}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARS.indexOf(v[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36] === v[14];
}

/** Shows only the last four characters of a secret (account number, Aadhar, PAN). */
export function maskTail(value: string | null | undefined): string | null {
  if (!value) return null;
  const tail = value.slice(-4);
  return `${'X'.repeat(Math.max(0, value.length - 4))}${tail}`;
}
