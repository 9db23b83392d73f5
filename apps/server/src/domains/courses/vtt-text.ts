/**
 * The words of a WebVTT file as a readable transcript: the cues' text in order, without the header,
 * NOTE/STYLE/REGION blocks, cue identifiers, timings or markup (<v Speaker>, <i>, timestamps);
 * a speaker given by <v Name> starts the line with "Name: ". Consecutive cues form one paragraph;
 * a pause of more than two seconds between cues starts a new one.
 */
export function vttToText(vtt: string): string {
  const blocks = vtt
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/);
  const paragraphs: string[][] = [];
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue; // header, NOTE, STYLE, REGION
    const [start, end] = (lines[at] ?? '').split('-->').map((t) => seconds(t.trim().split(/\s+/)[0] ?? ''));
    const words = lines
      .slice(at + 1)
      .map(cueLine)
      .filter(Boolean)
      .join(' ');
    if (!words) continue;
    if (paragraphs.length === 0 || (start ?? 0) - lastEnd > 2) paragraphs.push([]);
    paragraphs.at(-1)?.push(words);
    lastEnd = end ?? lastEnd;
  }
  return paragraphs.map((p) => p.join(' ')).join('\n\n');
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&nbsp;': ' ',
  '&lrm;': '',
  '&rlm;': '',
};

function cueLine(line: string): string {
  const voice = /^<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(line);
  const text = line
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (e) => ENTITIES[e] ?? e)
    .trim();
  return voice && text ? `${voice[1]?.trim()}: ${text}` : text;
}

/** '00:01:02.500' or '01:02.500' → seconds. */
function seconds(stamp: string): number | undefined {
  const parts = stamp.split(':').map(Number);
  if (parts.some((n) => Number.isNaN(n))) return undefined;
  return parts.reduce((total, n) => total * 60 + n, 0);
}
