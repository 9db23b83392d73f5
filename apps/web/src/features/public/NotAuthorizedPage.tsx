import { Button, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { useNavigate } from 'react-router';

export function NotAuthorizedPage() {
  const navigate = useNavigate();
  return (
    <Stack align="center" py="xl" gap="md">
      <Title order={1} size="h1" c="dimmed">
        403
      </Title>
      <Text size="xl" fw={600}>
        {MSG.notAuthorized}
      </Text>
      <Button leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={() => navigate(-1)}>
        Back
      </Button>
    </Stack>
  );
}
