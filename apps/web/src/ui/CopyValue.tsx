import { Button, Code, CopyButton, Group } from '@mantine/core';

/** A value to paste elsewhere (a DNS record, an identity provider's setting) with its Copy button. */
export function CopyValue({ label, value, grow = false }: { label: string; value: string; grow?: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code style={{ wordBreak: 'break-all', ...(grow ? { flex: 1 } : {}) }} aria-label={label}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
