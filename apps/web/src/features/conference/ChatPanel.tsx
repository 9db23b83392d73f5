import { Button, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { ChatLine } from './rtc-client';

/** The room's chat: the lines so far and a message box. */
export function ChatPanel({ chat, onSend }: { chat: ChatLine[]; onSend: (text: string) => void }) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    onSend(t);
    setText('');
  };
  return (
    <Stack gap="xs" h="100%">
      <ScrollArea style={{ flex: 1 }} mih={200}>
        {/* read out through the room's announcements, whichever tab is open */}
        <Stack gap={4} aria-label="Chat messages">
          {chat.length === 0 ? (
            <Text size="sm" c="dimmed">
              No messages yet.
            </Text>
          ) : null}
          {chat.map((line) => (
            <Text key={`${line.at}-${line.from}-${line.text}`} size="sm">
              <Text span fw={600}>
                {line.name}:
              </Text>{' '}
              {line.text}
            </Text>
          ))}
        </Stack>
      </ScrollArea>
      <form onSubmit={submit}>
        <Group gap={4} wrap="nowrap">
          <TextInput
            aria-label="Chat message"
            placeholder="Type a message"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={2000}
            style={{ flex: 1 }}
          />
          <Button type="submit" size="sm">
            Send
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
