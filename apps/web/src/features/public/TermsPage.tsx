import { Stack } from '@mantine/core';
import { CANCELLATION_TERMS } from '@trainlab/contract';
import { PageHeader } from '../../ui/PageHeader';
import { LegalSection, type LegalSectionContent } from './LegalSection';

const SECTIONS: LegalSectionContent[] = [
  {
    heading: 'Using TrainLab',
    paragraphs: [
      'By creating an account or purchasing a training, course or certification on TrainLab you agree to these terms. Keep your password secret; you are responsible for what happens under your account.',
    ],
  },
  {
    heading: 'Accounts',
    items: [
      'Learning providers and organizations can use the platform once an administrator has approved their account.',
      'Signing in on a new device can end your earlier session.',
      'We may suspend accounts that misuse the platform, its labs or other people’s content.',
    ],
  },
  {
    heading: 'Cancellation and refunds',
    items: [...CANCELLATION_TERMS],
  },
  {
    heading: 'Cloud labs',
    paragraphs: [
      'Virtual machines are provided for learning. Do not use them for unlawful activity, mining or attacks on other systems. Lab usage is billed to the provider or organization that created it.',
    ],
  },
  {
    heading: 'Content',
    paragraphs: [
      'Training material, recordings and assessments belong to their providers. You may use them for your own learning and may not redistribute them.',
    ],
  },
];

export function TermsPage() {
  return (
    <Stack gap="lg" maw={820}>
      <PageHeader title="Terms and Conditions" />
      {SECTIONS.map((s) => (
        <LegalSection key={s.heading} {...s} />
      ))}
    </Stack>
  );
}
