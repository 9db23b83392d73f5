// fontkit's Indic shaper calls a global `regeneratorRuntime` that its build does not bundle.
import 'regenerator-runtime/runtime.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import {
  beginText,
  type Color,
  endMarkedContent,
  endText,
  type PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from 'pdf-lib';

/**
 * User text (names, titles, organisations) on our PDFs: Latin stays in the standard fonts the
 * design uses, Indian scripts are drawn in Noto Sans <script> (OFL, shipped through npm) and
 * shaped by fontkit, Latin outside WinAnsi (Ł, ő, ₹) in the Latin part of Noto Sans Devanagari.
 * What no shipped font covers is folded to ASCII or '?' as before.
 */

type Face = fontkit.Font;
export type Weight = 'regular' | 'bold';

const INDIC = {
  devanagari: 'NotoSansDevanagari',
  bengali: 'NotoSansBengali',
  gurmukhi: 'NotoSansGurmukhi',
  gujarati: 'NotoSansGujarati',
  oriya: 'NotoSansOriya',
  tamil: 'NotoSansTamil',
  telugu: 'NotoSansTelugu',
  kannada: 'NotoSansKannada',
  malayalam: 'NotoSansMalayalam',
} as const;
type Indic = keyof typeof INDIC;
type Script = Indic | 'latin';

/** Its Latin part (Latin-1, Latin Extended-A/B, ₹, €, typographic quotes) is the fallback for Latin outside WinAnsi. */
const LATIN_FALLBACK: Indic = 'devanagari';

const BLOCKS: [number, number, Indic][] = [
  [0x0900, 0x097f, 'devanagari'],
  [0x0980, 0x09ff, 'bengali'],
  [0x0a00, 0x0a7f, 'gurmukhi'],
  [0x0a80, 0x0aff, 'gujarati'],
  [0x0b00, 0x0b7f, 'oriya'],
  [0x0b80, 0x0bff, 'tamil'],
  [0x0c00, 0x0c7f, 'telugu'],
  [0x0c80, 0x0cff, 'kannada'],
  [0x0d00, 0x0d7f, 'malayalam'],
  [0x1cd0, 0x1cff, 'devanagari'],
  [0xa8e0, 0xa8ff, 'devanagari'],
];
/** Danda and double danda sit in the Devanagari block but end sentences in several scripts. */
const SHARED_INDIC = new Set([0x0964, 0x0965]);
const ZW = new Set([0x200c, 0x200d]);

/** A script for letters, null for what takes the script of its neighbour (spaces, digits, marks, punctuation). */
function scriptOf(cp: number): Script | null {
  if (!SHARED_INDIC.has(cp)) for (const [lo, hi, s] of BLOCKS) if (cp >= lo && cp <= hi) return s;
  return /\p{L}/u.test(String.fromCodePoint(cp)) ? 'latin' : null;
}

// ---- WinAnsi folding (the standard fonts' character set) ----

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/** Latin letters that Unicode does not decompose into a base letter plus accent. */
const NO_DECOMPOSITION: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
};
const winAnsi = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
};
/** One character in WinAnsi: itself, its base letter without accents, or '?'. */
function foldChar(ch: string): string {
  if (winAnsi(ch)) return ch;
  const folded = (NO_DECOMPOSITION[ch] ?? ch).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return /^[\x20-\x7e]+$/.test(folded) ? folded : '?';
}
const tidy = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Text in the standard fonts' WinAnsi: accents are folded ('Ł' -> 'L') when the letter is missing, other scripts become '?'. */
export function printable(text: string): string {
  return tidy([...tidy(text)].map(foldChar).join(''));
}

// ---- fonts: read and parsed once per process, on first use ----

const requireFont = createRequire(import.meta.url);
const faces = new Map<string, { bytes: Uint8Array; face: Face }>();
const faceByBytes = new WeakMap<Uint8Array, Face>();

function load(script: Indic, weight: Weight) {
  const key = `${script}-${weight}`;
  let f = faces.get(key);
  if (!f) {
    const style = weight === 'bold' ? '700Bold' : '400Regular';
    const file = requireFont.resolve(`@expo-google-fonts/noto-sans-${script}/${style}/${INDIC[script]}_${style}.ttf`);
    const bytes = new Uint8Array(readFileSync(file));
    const face = fontkit.create(bytes);
    tolerateNullAnchors(face);
    f = { bytes, face };
    faces.set(key, f);
    faceByBytes.set(bytes, face);
  }
  return f;
}

/**
 * fontkit reads a mark-to-base record without an anchor for this mark class (Noto Sans Gurmukhi
 * has them) as a crash; OpenType means "no attachment here", so the mark keeps its default place.
 */
function tolerateNullAnchors(face: Face) {
  // biome-ignore lint/suspicious/noExplicitAny: fontkit keeps its GPOS processor private
  const gpos = (face as any)._layoutEngine?.engine?.GPOSProcessor;
  if (!gpos) return;
  const proto = Object.getPrototypeOf(gpos);
  if (proto.applyAnchor.tolerant) return;
  const apply = proto.applyAnchor;
  proto.applyAnchor = function (markRecord: { markAnchor?: unknown } | null, baseAnchor: unknown, index: number) {
    if (!baseAnchor || !markRecord?.markAnchor) return;
    apply.call(this, markRecord, baseAnchor, index);
  };
  proto.applyAnchor.tolerant = true;
}

/** pdf-lib parses the bytes it embeds; hand it the faces parsed already. */
const cachedFontkit = {
  create: (bytes: Uint8Array, postscriptName?: string) =>
    faceByBytes.get(bytes) ?? fontkit.create(bytes, postscriptName),
};

// ---- lines: runs of one font each ----

interface Shaped {
  face: Face;
  glyphs: fontkit.GlyphRun;
}
interface Run {
  text: string;
  font: PDFFont;
  shaped?: Shaped;
}

export interface DrawOptions {
  x: number;
  y: number;
  size: number;
  color: Color;
}

/** A line of user text split into runs of one font; measured and drawn as one. */
export class TextLine {
  constructor(
    /** The text as given, NFC with whitespace collapsed: for document properties, which are Unicode. */
    readonly text: string,
    readonly runs: Run[],
  ) {}

  /** What the line prints: the text with '?' (or a folded letter) where no font has a character. */
  get printed(): string {
    return this.runs.map((r) => r.text).join('');
  }

  widthAt(size: number): number {
    return this.runs.reduce((w, r) => w + runWidth(r, size), 0);
  }

  draw(page: PDFPage, o: DrawOptions) {
    const shaped = this.runs.some((r) => r.shaped);
    // Shaped glyphs come in visual order, so copy and search take the words from ActualText.
    if (shaped)
      page.pushOperators(
        PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
          PDFName.of('Span'),
          `<< /ActualText ${PDFHexString.fromText(this.printed).toString()} >>`,
        ]),
      );
    let x = o.x;
    for (const r of this.runs) {
      if (r.shaped) drawShaped(page, r, x, o);
      else page.drawText(r.text, { x, y: o.y, size: o.size, font: r.font, color: o.color });
      x += runWidth(r, o.size);
    }
    if (shaped) page.pushOperators(endMarkedContent());
  }
}

function runWidth(r: Run, size: number): number {
  if (!r.shaped) return r.font.widthOfTextAtSize(r.text, size);
  const units = r.shaped.glyphs.positions.reduce((sum, p) => sum + p.xAdvance, 0);
  return (units * size) / r.shaped.face.unitsPerEm;
}

/**
 * pdf-lib's drawText places glyphs by their advance widths only; Indic marks and conjunct parts
 * need the offsets of the font's GPOS, so each glyph that moves gets its own text matrix.
 */
function drawShaped(page: PDFPage, r: Run, x: number, o: DrawOptions) {
  const { face, glyphs } = r.shaped!;
  // encodeText adds the glyphs to the subset; its ids come in the same layout order as ours.
  const ids = r.font.encodeText(r.text).asString().match(/.{4}/g) ?? [];
  if (ids.length !== glyphs.glyphs.length) throw new Error('pdf-text: glyph runs disagree');
  const scale = o.size / face.unitsPerEm;
  const ops: PDFOperator[] = [
    pushGraphicsState(),
    setFillingColor(o.color),
    beginText(),
    setFontAndSize(fontKey(page, r.font), o.size),
  ];
  let pen = 0;
  let chunk = '';
  let open = false;
  const flush = () => {
    if (chunk) ops.push(showText(PDFHexString.of(chunk)));
    chunk = '';
  };
  glyphs.positions.forEach((p, i) => {
    const plain = !p.xOffset && !p.yOffset;
    if (!(plain && open)) {
      flush();
      ops.push(setTextMatrix(1, 0, 0, 1, x + (pen + p.xOffset) * scale, o.y + p.yOffset * scale));
    }
    chunk += ids[i];
    // the viewer advances by the glyph's own width: the next glyph may follow only when that is where it goes
    open = plain && p.xAdvance === glyphs.glyphs[i]!.advanceWidth;
    pen += p.xAdvance;
  });
  flush();
  ops.push(endText(), popGraphicsState());
  page.pushOperators(...ops);
}

const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
function fontKey(page: PDFPage, font: PDFFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) {
    keys = new Map();
    fontKeys.set(page, keys);
  }
  let key = keys.get(font);
  if (!key) {
    key = page.node.newFontDictionary(font.name, font.ref);
    keys.set(font, key);
  }
  return key;
}

/** Per document: embeds (subset) only the Noto fonts its text needs, once each. */
export class PdfText {
  private readonly embedded = new Map<string, Promise<PDFFont>>();

  constructor(private readonly doc: PDFDocument) {
    doc.registerFontkit(cachedFontkit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  }

  private font(script: Indic, weight: Weight): Promise<PDFFont> {
    const key = `${script}-${weight}`;
    let f = this.embedded.get(key);
    if (!f) {
      // a fixed name keeps a re-rendered PDF byte-identical (pdf-lib otherwise adds a random suffix)
      f = this.doc.embedFont(load(script, weight).bytes, {
        subset: true,
        customName: `${INDIC[script]}-${weight === 'bold' ? 'Bold' : 'Regular'}`,
      });
      this.embedded.set(key, f);
    }
    return f;
  }

  /** Splits text into runs by script and picks each run's font; `latin` is the design's standard font. */
  async line(text: string, latin: PDFFont, weight: Weight = 'regular'): Promise<TextLine> {
    const clean = tidy(text);
    const parts: { script: Script; text: string }[] = [];
    for (const ch of clean) {
      const s = scriptOf(ch.codePointAt(0)!);
      const last = parts[parts.length - 1];
      if (last && (s === null || s === last.script)) last.text += ch;
      else parts.push({ script: s ?? 'latin', text: ch });
    }
    const runs: Run[] = [];
    for (const part of parts) {
      if (part.script === 'latin' && [...part.text].every(winAnsi)) {
        runs.push({ text: part.text, font: latin });
        continue;
      }
      const script = part.script === 'latin' ? LATIN_FALLBACK : part.script;
      const { face } = load(script, weight);
      const has = (ch: string) => face.hasGlyphForCodePoint(ch.codePointAt(0)!);
      const chars = [...part.text].map((ch) => {
        if (has(ch) || (part.script === 'latin' && winAnsi(ch))) return ch;
        if (ZW.has(ch.codePointAt(0)!)) return '';
        const folded = foldChar(ch);
        return [...folded].every(has) ? folded : '?';
      });
      const runText = chars.join('');
      if (part.script === 'latin' && [...runText].every(winAnsi)) {
        runs.push({ text: runText, font: latin });
        continue;
      }
      runs.push({
        text: runText,
        font: await this.font(script, weight),
        shaped: { face, glyphs: face.layout(runText) },
      });
    }
    return new TextLine(clean, runs);
  }
}
