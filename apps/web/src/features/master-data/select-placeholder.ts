/** The first, empty option of a native select: 'Select …', or 'Loading…' while its options load. */
export const placeholder = (label: string, loading = false) => ({
  value: '',
  label: loading ? 'Loading…' : `Select ${label}`,
});
