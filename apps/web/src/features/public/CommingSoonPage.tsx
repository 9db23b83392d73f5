import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconHourglass } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { useNavigate } from 'react-router';

/** /comming-soon (path spelled as the spec has it). */
export function CommingSoonPage() {
  const navigate = useNavigate();
  return (
    <Stack align="center" py="xl" gap="md">
      <ThemeIcon size={64} radius="xl" variant="light" aria-hidden>
        <IconHourglass size={36} />
      </ThemeIcon>
      <Title order={1}>{MSG.comingSoon}</Title>
      <Text c="dimmed" ta="center" maw={480}>
        We are working hard on this part of TrainLab. Please check back shortly.
      </Text>
      <Button leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={() => navigate(-1)}>
        Go Back
      </Button>
    </Stack>
  );
}
