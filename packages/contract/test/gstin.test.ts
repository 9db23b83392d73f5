import { describe, expect, it } from 'vitest';
import { gstinValid, saveBillingSettingsRequest, trainerProfileFields } from '../src';

// Real GSTINs published by their holders (their check characters are the GST network's own).
const VALID = ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '27AAACR5055K1Z7', '33AAACH7409R1Z8', '24AAACC1206D1ZM'];

describe('GSTIN check character (mod 36)', () => {
  it('accepts published GSTINs, in either case', () => {
    for (const g of VALID) {
      expect(gstinValid(g), g).toBe(true);
      expect(gstinValid(g.toLowerCase()), g).toBe(true);
    }
  });

  it('refuses each of them with any other check character, and any single mistyped character', () => {
    const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const g of VALID) {
      for (const c of chars) if (c !== g.charAt(14)) expect(gstinValid(g.slice(0, 14) + c), `${g} → ${c}`).toBe(false);
      // one character changed anywhere in the first 14 changes the check character
      for (let i = 0; i < 14; i++) {
        const swapped = chars.charAt((chars.indexOf(g.charAt(i)) + 1) % 36);
        expect(gstinValid(g.slice(0, i) + swapped + g.slice(i + 1)), `${g} at ${i}`).toBe(false);
      }
    }
  });

  it('refuses the wrong length or characters, and the portal’s format sample whose check is wrong', () => {
    expect(gstinValid('27AAPFU0939F1Z')).toBe(false);
    expect(gstinValid('27AAPFU0939F1ZV0')).toBe(false);
    expect(gstinValid('27AAPFU0939F1Z-')).toBe(false);
    expect(gstinValid('22AAAAA0000A1Z5')).toBe(false);
  });

  it('is applied wherever a GSTIN is taken: billing settings and the trainer profile', () => {
    expect(saveBillingSettingsRequest.safeParse({ gst_percent: 18, gstin: '27AAPFU0939F1ZV' }).success).toBe(true);
    expect(saveBillingSettingsRequest.safeParse({ gst_percent: 18, gstin: '27AAPFU0939F1ZW' }).success).toBe(false);
    expect(trainerProfileFields.shape.GSTIN_no.safeParse('29AAGCB7383J1Z4').success).toBe(true);
    expect(trainerProfileFields.shape.GSTIN_no.safeParse('29AAGCB7383J1Z5').success).toBe(false);
  });
});
