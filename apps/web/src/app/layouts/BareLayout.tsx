import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { MAIN_ID } from './SkipLink';

/** Full-screen pages (conference, whiteboard, remote VM): no header, no sidebar. */
export function BareLayout() {
  return (
    <Box component="main" id={MAIN_ID} tabIndex={-1} mih="100vh" p="md">
      <Outlet />
    </Box>
  );
}
