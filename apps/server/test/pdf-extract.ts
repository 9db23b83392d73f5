import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  type PDFRef,
} from 'pdf-lib';

/** A marked-content span with ActualText: what it says it shows, and what its glyphs map back to. */
export interface PdfSpan {
  actual: string;
  /** The glyphs' text through each font's encoding (ToUnicode for embedded fonts, WinAnsi for standard ones). */
  glyphs: string;
  /** How many glyphs the span draws (an Indic conjunct is one glyph for several characters). */
  glyphCount: number;
  /** Font sizes used inside. */
  sizes: number[];
}

export interface PdfContent {
  spans: PdfSpan[];
  /** The text of every text-showing operator, decoded with its font. */
  shown: string[];
  /** The BaseFont of every font the first page uses. */
  fonts: string[];
}

const utf16be = (hex: string) => {
  const b = Buffer.from(hex, 'hex');
  const body = b[0] === 0xfe && b[1] === 0xff ? b.subarray(2) : b;
  return Buffer.from(body).swap16().toString('utf16le');
};

const streamText = (obj: PDFObject | undefined) =>
  obj instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(obj).decode()).toString('latin1') : '';

interface FontInfo {
  baseFont: string;
  /** two-byte codes through ToUnicode, or null for the one-byte standard fonts */
  toUnicode: Map<number, string> | null;
}

/**
 * The text a pdf-lib PDF draws on its first page, read the way a viewer does: embedded (Type0)
 * fonts through their ToUnicode CMap, standard fonts as WinAnsi bytes, ActualText spans as given.
 */
export async function pdfContent(bytes: Uint8Array): Promise<PdfContent> {
  const doc = await PDFDocument.load(bytes);
  const ctx = doc.context;
  const page = doc.getPage(0).node;
  const fontDict = page.Resources()?.lookup(PDFName.of('Font'), PDFDict);
  const fonts = new Map<string, FontInfo>();
  for (const [key, ref] of fontDict?.entries() ?? []) {
    const font = ctx.lookup(ref, PDFDict);
    const baseFont = font.get(PDFName.of('BaseFont'))!.toString().slice(1);
    let toUnicode: Map<number, string> | null = null;
    if (font.get(PDFName.of('Subtype')) === PDFName.of('Type0')) {
      toUnicode = new Map();
      const cmap = streamText(ctx.lookup(font.get(PDFName.of('ToUnicode')) as PDFRef));
      for (const m of cmap.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>/g))
        toUnicode.set(Number.parseInt(m[1]!, 16), utf16be(m[2]!));
    }
    fonts.set(key.toString().slice(1), { baseFont, toUnicode });
  }

  const contents = page.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => ctx.lookup(r)) : [contents];
  const content = streams.map((s) => streamText(s)).join('\n');

  const out: PdfContent = { spans: [], shown: [], fonts: [...new Set([...fonts.values()].map((f) => f.baseFont))] };
  let font: FontInfo | undefined;
  let size = 0;
  let span: PdfSpan | null = null;
  const ops =
    /\/([^\s/<>[\]()]+)\s+([-\d.]+)\s+Tf|<([0-9a-fA-F]*)>\s*Tj|\/Span\s*<<\s*\/ActualText\s*<([0-9a-fA-F]*)>\s*>>\s*BDC|\bEMC\b/g;
  for (const m of content.matchAll(ops)) {
    if (m[1] !== undefined) {
      font = fonts.get(m[1]);
      size = Number(m[2]);
      span?.sizes.push(size);
    } else if (m[3] !== undefined) {
      const hex = m[3];
      let text: string;
      let count: number;
      const toUnicode = font?.toUnicode;
      if (toUnicode) {
        const codes = (hex.match(/.{4}/g) ?? []).map((c) => Number.parseInt(c, 16));
        text = codes.map((c) => toUnicode.get(c) ?? '\uFFFD').join('');
        count = codes.length;
      } else {
        text = Buffer.from(hex, 'hex').toString('latin1');
        count = text.length;
      }
      out.shown.push(text);
      if (span) {
        span.glyphs += text;
        span.glyphCount += count;
      }
    } else if (m[4] !== undefined) {
      span = { actual: utf16be(m[4]), glyphs: '', glyphCount: 0, sizes: [] };
      out.spans.push(span);
    } else {
      span = null;
    }
  }
  return out;
}

/** The characters of a string in code point order: shaped glyphs come in visual, not logical, order. */
export const sortedChars = (s: string) => [...s].sort().join('');
