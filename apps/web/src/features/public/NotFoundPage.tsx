import { Button, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@trainlab/contract';
import { useEffect } from 'react';
import { Link } from 'react-router';

export function NotFoundPage() {
  useEffect(() => {
    document.title = 'Page not found | TrainLab';
  }, []);
  return (
    <Stack align="center" py="xl" gap="md">
      <Title order={1} size="h1" c="dimmed">
        404
      </Title>
      <Text size="xl" fw={600}>
        {MSG.pageNotFound}
      </Text>
      <Button component={Link} to="/">
        Go to Home
      </Button>
    </Stack>
  );
}
