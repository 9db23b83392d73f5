import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { printable, printDate, renderCertificatePdf } from '../src/domains/certificates/pdf';
import { newRefNo } from '../src/domains/certificates/service';
import { pdfText } from './certificates-fixtures';
import { pdfContent, sortedChars } from './pdf-extract';

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

  it('folds what no shipped font covers to WinAnsi (accents dropped, other letters as ?)', async () => {
    expect(printable('José Łukasz  Ñoño')).toBe('José Lukasz Ñoño');
    expect(printable('अनु Rao')).toBe('??? Rao');
    // an emoji and a CJK letter: no font of ours has them, the Latin line stays in the standard font
    const latin = await renderCertificatePdf({ ...facts, user_name: 'Asha 😀 王 Rao' });
    expect(pdfText(latin)).toContain('Asha ? ? Rao');
    // inside a Devanagari run they become the Noto font's '?'
    const { spans } = await pdfContent(await renderCertificatePdf({ ...facts, user_name: 'राम 😀' }));
    const span = spans.find((s) => s.actual === 'राम ?');
    expect(span?.glyphs && sortedChars(span.glyphs)).toBe(sortedChars('राम ?'));
  });

  describe('names in Indian scripts print in their own script', () => {
    const nameSpan = async (user_name: string, training_name = facts.training_name) => {
      const bytes = await renderCertificatePdf({ ...facts, user_name, training_name });
      const content = await pdfContent(bytes);
      return { content, doc: await PDFDocument.load(bytes), span: content.spans.find((s) => s.actual === user_name) };
    };

    it('Devanagari: conjuncts and vowel signs are shaped, the text reads back', async () => {
      const { content, doc, span } = await nameSpan('श्री राम शर्मा', 'क्षत्रिय इतिहास');
      expect(doc.getTitle()).toBe('Certificate of Completion - श्री राम शर्मा');
      expect(content.fonts).toContain('NotoSansDevanagari-Bold');
      // every character is drawn by a real glyph of the font (none became '?')
      expect(sortedChars(span!.glyphs)).toBe(sortedChars('श्री राम शर्मा'));
      // श्री is one conjunct glyph plus its vowel sign, शर्मा carries a reph: fewer glyphs than characters
      expect(span!.glyphCount).toBeLessThan([...'श्री राम शर्मा'].length);
      const title = content.spans.find((s) => s.actual === 'क्षत्रिय इतिहास')!;
      expect(sortedChars(title.glyphs)).toBe(sortedChars('क्षत्रिय इतिहास'));
      expect(title.glyphs).toContain('क्ष');
    });

    it('Tamil', async () => {
      const { content, span } = await nameSpan('முருகன் க்ஷ');
      expect(content.fonts).toContain('NotoSansTamil-Bold');
      expect(sortedChars(span!.glyphs)).toBe(sortedChars('முருகன் க்ஷ'));
      expect(span!.glyphs).toContain('க்ஷ'); // one glyph
    });

    it('mixed scripts: each run in its own font, measured together', async () => {
      const { content, span } = await nameSpan('Ravi राम');
      expect(sortedChars(span!.glyphs)).toBe(sortedChars('Ravi राम'));
      expect(content.fonts).toEqual(expect.arrayContaining(['Times-BoldItalic', 'NotoSansDevanagari-Bold']));
    });

    it('Bengali, Gurmukhi, Gujarati, Odia, Telugu, Kannada, Malayalam and Latin outside WinAnsi', async () => {
      const names: [string, string][] = [
        ['সুমন অর্ক', 'NotoSansBengali-Bold'],
        ['ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ', 'NotoSansGurmukhi-Bold'],
        ['ક્રિષ્ના', 'NotoSansGujarati-Bold'],
        ['ଓଡ଼ିଆ', 'NotoSansOriya-Bold'],
        ['శ్రీనివాస్', 'NotoSansTelugu-Bold'],
        ['ಶ್ರೀನಿವಾಸ', 'NotoSansKannada-Bold'],
        ['സുമൻ', 'NotoSansMalayalam-Bold'],
        ['Łukasz Őrs', 'NotoSansDevanagari-Bold'],
      ];
      for (const [name, font] of names) {
        const { content, span } = await nameSpan(name);
        expect(content.fonts, name).toContain(font);
        expect(span, name).toBeDefined();
        expect(span!.glyphs, name).not.toContain('?');
        expect(span!.glyphCount, name).toBeGreaterThan(0);
      }
    });

    it('long names still shrink to fit; a re-render is byte-identical', async () => {
      const long = 'Łukasz अनु Wolfeschlegelsteinhausenbergerdorff Wolfeschlegelsteinhausenbergerdorff';
      const { span } = await nameSpan(long);
      expect(sortedChars(span!.glyphs)).toBe(sortedChars(long));
      expect(Math.max(...span!.sizes)).toBeLessThan(38);
      const a = Buffer.from(await renderCertificatePdf({ ...facts, user_name: 'श्री राम शर्मा' }));
      const b = Buffer.from(await renderCertificatePdf({ ...facts, user_name: 'श्री राम शर्मा' }));
      expect(a.equals(b)).toBe(true);
    });
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
