import { SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import type { RemotePeer } from './rtc-client';
import { VideoTile } from './VideoTile';

/** Mesh rooms: our own tile and every peer's, in as many columns as the room needs. */
export function MeshGrid({ self, peers }: { self: ReactNode; peers: RemotePeer[] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: peers.length === 0 ? 1 : 2, lg: peers.length > 3 ? 3 : peers.length === 0 ? 1 : 2 }}
      spacing="xs"
      h="100%"
      style={{ gridAutoRows: 'minmax(160px, 1fr)' }}
    >
      {self}
      {peers.map((p) => (
        <VideoTile key={p.id} name={p.name} stream={p.stream} moderator={p.isModerator} />
      ))}
    </SimpleGrid>
  );
}
