import type { ITerminalOptions } from '@xterm/xterm';

/**
 * The lab terminal's look (issue 41: `echo snake_case_word` read "snake case word"). At xterm's
 * default line height of 1 the cell is exactly the font's ascent + descent, and the underscore of
 * DejaVu Sans Mono (Debian's monospace) sits on the cell's last pixel row, which the row's box cuts
 * off. A line height of 1.2 gives every glyph room below its descent; the font is named so the
 * cell is measured from the font that is drawn.
 */
export const TERMINAL_OPTIONS: ITerminalOptions = {
  cursorBlink: true,
  fontSize: 14,
  lineHeight: 1.2,
  fontFamily: '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
  convertEol: false,
  screenReaderMode: true,
};
