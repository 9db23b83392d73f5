/**
 * Ids in addresses are base64-encoded (spec 02 §9: /trainer/update-bank-details/:id,
 * /take-call-trainers/:id, /training-attendance/:id, /certification-details/:id…), and back: anything
 * that is not the base64 of a positive whole number is no id (null), so the page says it is not found.
 */
export const encodeId = (id: number | string) => btoa(String(id));
export function decodeId(value: string | undefined): number | null {
  if (!value) return null;
  try {
    const n = Number(atob(value));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
