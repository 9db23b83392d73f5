import { type CSSVariablesResolver, createTheme, darken, luminance } from '@mantine/core';

const systemFonts =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

/** System fonts only: the product loads nothing from a CDN. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Darker shades keep text on white and on light tints above the WCAG AA 4.5:1 contrast ratio.
  primaryShade: { light: 8, dark: 5 },
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts, fontWeight: '700' },
  defaultRadius: 'md',
  focusRing: 'auto',
  // Mantine's own transitions (modals, menus, toasts) stop for people who ask for reduced motion
  respectReducedMotion: true,
  components: {
    // links inside text are underlined, not told apart by colour alone (WCAG 1.4.1)
    Anchor: { defaultProps: { underline: 'always' } },
    Button: { defaultProps: { radius: 'md' } },
    // alerts' close buttons need a name for screen readers
    Alert: { defaultProps: { closeButtonLabel: 'Dismiss' } },
    // dialogs' and drawers' close (×) buttons likewise
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // toasts' close buttons need a name for screen readers
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});

/** WCAG contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The first of a colour's shades 8–9 (8 is the primary shade), then darker still, that carries white text at AA. */
export function filledFor(shades: readonly string[]): string {
  for (const shade of shades.slice(8)) if (contrastRatio(shade, '#fff') >= 4.5) return shade;
  let dark = shades[9] ?? '#000';
  while (contrastRatio(dark, '#fff') < 4.5) dark = darken(dark, 0.05);
  return dark;
}

/** Grey text that passes AA on white (gray 6, Mantine's default, does not): placeholders, hints. */
const PLACEHOLDER = '#6c757d';

/**
 * Colours tuned for WCAG AA contrast (4.5:1) on the light scheme: dimmed and placeholder text, the
 * text of disabled controls, the text of light variants on their tints, and white on filled buttons.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    '--mantine-color-placeholder': PLACEHOLDER,
    // disabled fields and buttons stay readable (WCAG exempts them; people still need to read them)
    '--mantine-color-disabled-color': t.colors.gray[7] ?? '#495057',
    // text of light variants (badges, light buttons) darker than the darkest shade, for AA contrast on tints
    ...Object.fromEntries(
      Object.keys(t.colors).map((c) => [`--mantine-color-${c}-light-color`, darken(t.colors[c]?.[9] ?? '#000', 0.25)]),
    ),
    // filled buttons and badges of every colour carry white text at AA
    ...Object.fromEntries(
      Object.keys(t.colors).flatMap((c) => {
        const filled = filledFor(t.colors[c] ?? []);
        return [
          [`--mantine-color-${c}-filled`, filled],
          [`--mantine-color-${c}-filled-hover`, darken(filled, 0.1)],
        ];
      }),
    ),
  },
  dark: {},
});
