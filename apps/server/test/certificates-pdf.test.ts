import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { printable, printDate, renderCertificatePdf } from '../src/domains/certificates/pdf';
import { newRefNo } from '../src/domains/certificates/service';
import { pdfText } from './certificates-fixtures';

const facts = {
  user_name: 'Asha Raghunathan',
  training_name: 'Python Basics for Data Engineering',
  issuer_name: 'Acme Learning Pvt. Ltd.',
  signatory_name: 'Meera Kulkarni',
  signatory_title: 'Head of Training',
  start_date: new Date('2026-04-18T09:30:00Z'),
  end_date: new Date('2026-05-06T17:00:00Z'),
  issued_at: new Date('2026-05-07T10:00:00Z'),
  ref_no: 'TL-2026-7K4QX9',
  verify_url: 'http://app.test/certificate/verify/TL-2026-7K4QX9',
};

describe('certificate PDF', () => {
  it('is one landscape A4 page with the real names, dates, issuer, signatory and ref no', async () => {
    const bytes = await renderCertificatePdf(facts);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect(Math.round(width)).toBe(842);
    expect(Math.round(height)).toBe(595);
    expect(doc.getTitle()).toBe('Certificate of Completion - Asha Raghunathan');
    const text = pdfText(bytes);
    for (const s of [
      'Certificate of Completion',
      'Asha Raghunathan',
      'Python Basics for Data Engineering',
      'held from 18 April 2026 to 6 May 2026',
      'conducted by Acme Learning Pvt. Ltd.',
      'Meera Kulkarni',
      'Head of Training',
      '7 May 2026',
      'Certificate No. TL-2026-7K4QX9',
      'Verify: http://app.test/certificate/verify/TL-2026-7K4QX9',
    ]) {
      expect(text).toContain(s);
    }
  });

  it('is a pure function of its facts', async () => {
    const a = Buffer.from(await renderCertificatePdf(facts));
    const b = Buffer.from(await renderCertificatePdf(facts));
    expect(a.equals(b)).toBe(true);
  });

  it('prints names outside WinAnsi without failing, long names shrink to fit', async () => {
    expect(printable('José Łukasz  Ñoño')).toBe('José Lukasz Ñoño');
    expect(printable('अनु Rao')).toBe('??? Rao');
    const bytes = await renderCertificatePdf({
      ...facts,
      user_name: 'Łukasz अनु Wolfeschlegelsteinhausenbergerdorff Wolfeschlegelsteinhausenbergerdorff',
    });
    expect(pdfText(bytes)).toContain('Lukasz ??? Wolfeschlegelsteinhausenbergerdorff');
  });

  it('dates print in words; ref numbers look like TL-YYYY-XXXXXX', () => {
    expect(printDate(new Date('2023-04-18T00:00:00Z'))).toBe('18 April 2023');
    const refs = new Set(Array.from({ length: 200 }, () => newRefNo(new Date('2026-01-01T00:00:00Z'))));
    expect(refs.size).toBe(200);
    for (const r of refs) expect(r).toMatch(/^TL-2026-[2-9A-HJ-NP-Z]{6}$/);
  });

  it('jszip is usable for the bundle', async () => {
    const zip = new JSZip();
    zip.file('a.pdf', await renderCertificatePdf(facts));
    const back = await JSZip.loadAsync(await zip.generateAsync({ type: 'uint8array' }));
    expect(Object.keys(back.files)).toEqual(['a.pdf']);
  });
});
