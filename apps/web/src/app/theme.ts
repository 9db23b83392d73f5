import { type CSSVariablesResolver, createTheme, darken } from '@mantine/core';

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
  components: {
    Button: { defaultProps: { radius: 'md' } },
    // toasts' close buttons need a name for screen readers
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});

/** Dimmed text one step darker than Mantine's default (gray 6 fails AA contrast on white). */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    // text of light variants (badges, light buttons) darker than the darkest shade, for AA contrast on tints
    ...Object.fromEntries(
      Object.keys(t.colors).map((c) => [`--mantine-color-${c}-light-color`, darken(t.colors[c]?.[9] ?? '#000', 0.25)]),
    ),
  },
  dark: {},
});
