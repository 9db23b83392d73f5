import { ScrollArea, Tabs } from '@mantine/core';
import type { PeerInfo } from '@trainlab/contract';
import { ChatPanel } from './ChatPanel';
import { ParticipantsList } from './ParticipantsList';
import type { ChatLine, RemotePeer } from './rtc-client';

/** The room's side: the participants and the chat, one tab each. */
export function SidePanel({
  me,
  peers,
  chat,
  onSend,
}: {
  me: PeerInfo | null;
  peers: RemotePeer[];
  chat: ChatLine[];
  onSend: (text: string) => void;
}) {
  const everyone = me ? [me, ...peers] : peers;
  return (
    <Tabs defaultValue="people" h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Tabs.List grow>
        <Tabs.Tab value="people">Participants ({everyone.length})</Tabs.Tab>
        <Tabs.Tab value="chat">Chat{chat.length ? ` (${chat.length})` : ''}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="people" pt="xs" style={{ flex: 1, minHeight: 0 }}>
        <ScrollArea h="100%">
          <ParticipantsList everyone={everyone} meId={me?.id} />
        </ScrollArea>
      </Tabs.Panel>
      <Tabs.Panel value="chat" pt="xs" style={{ flex: 1, minHeight: 0 }}>
        <ChatPanel chat={chat} onSend={onSend} />
      </Tabs.Panel>
    </Tabs>
  );
}
