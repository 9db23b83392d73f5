/**
 * The one list of fields whose values must never be written out in clear: secrets (passwords,
 * tokens, keys, one-time codes) and a person's identity and bank numbers (KYC: PAN, Aadhar, bank
 * account and IBAN numbers, and the GSTIN, whose characters 3 to 12 are the holder's PAN).
 *
 * The KYC values are stored only encrypted (`deps.cipher`); wherever a record is copied out of its
 * table (an audit row, a log line, an export) a field named here is written as '[redacted]'. The
 * audit writer, the logger and the audit export all ask this module.
 */

export const REDACTED = '[redacted]';

/** Identity and bank numbers, as the API and the tables name them. */
export const KYC_FIELDS = ['pan_no', 'aadhar_no', 'account_number', 'GSTIN_no', 'gstin_no', 'iban_code'] as const;

/** Secret fields the API takes by these exact names (the logger's paths need exact names). */
export const SECRET_FIELDS = [
  'password',
  'password2',
  'password_confirmation',
  'current_password',
  'token',
  'email_otp',
  'mobile_otp',
  'oidc_client_secret',
] as const;

/** Any name that looks like a secret, however a table or a call spells it. */
const SECRET_NAME = /pass(word)?|secret|token|hash|otp|private|api_?key|^key$|cipher|credential|signature|_enc$/i;
/** The KYC names and their usual spellings (pan, pan_number, aadhaar_no, account_no, iban…). */
const KYC_NAME = /^(pan(_?no|_?number)?|aadhaa?r(_?no|_?number)?|account_?(no|number)|gstin(_?no)?|iban(_?code)?)$/i;

export function isSensitiveField(name: string): boolean {
  return SECRET_NAME.test(name) || KYC_NAME.test(name);
}

/** A copy of a value with every sensitive field (at any depth) replaced by '[redacted]'. */
export function redactSensitive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSensitive);
  if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        isSensitiveField(k) ? REDACTED : redactSensitive(v),
      ]),
    );
  }
  return value;
}

/**
 * The logger's redaction paths (pino): the authorization and cookie headers, and each named field
 * wherever a log line carries it at the first two levels (a request body, an object logged beside
 * the message).
 */
export function logRedactPaths(): string[] {
  const names = [...SECRET_FIELDS, ...KYC_FIELDS];
  return [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-api-key"]',
    ...names.flatMap((n) => [n, `*.${n}`, `*.*.${n}`]),
  ];
}
