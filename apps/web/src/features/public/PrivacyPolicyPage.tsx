import { Stack, Text } from '@mantine/core';
import { PageHeader } from '../../ui/PageHeader';
import { LegalSection, type LegalSectionContent } from './LegalSection';

const SECTIONS: LegalSectionContent[] = [
  {
    heading: 'Who we are',
    paragraphs: [
      'TrainLab is a platform on which learning providers and organizations run live trainings, recorded courses, assessments and cloud labs for their learners. This policy explains what personal data we handle when you use the platform, why, and what choices you have.',
    ],
  },
  {
    heading: 'Data we collect',
    items: [
      'Account data: first and last name, e-mail address, mobile number, account type, and the organization or line of business you register under.',
      'Sign-in data: a hashed password (we never store it in readable form), session tokens and the time of your last sign-in.',
      'Learning data: trainings and courses you are assigned to, attendance and time spent in live sessions, course progress, assessment answers and results, and certificates issued to you.',
      'Lab data: the virtual machines assigned to you, when they were started and stopped, and usage used for billing your organization or provider.',
      'Purchase data: items in your cart and payment references. Card details are entered with our payment provider and never reach our servers.',
      'Trainer data (trainers only): profile, skills, certificates, references and bank details needed to pay you.',
    ],
  },
  {
    heading: 'How we use your data',
    items: [
      'To create and secure your account, and to sign you in.',
      'To run the trainings, courses, assessments and labs you take part in, and to issue certificates.',
      'To let the provider or organization that enrolled you see your attendance, progress and results.',
      'To send service e-mails and one-time codes (password resets, approvals, training invitations).',
      'To process payments and keep the records the law requires.',
      'To keep the platform safe: detecting abuse, limiting repeated failed sign-ins and investigating incidents.',
    ],
    paragraphs: ['We do not sell your personal data and we do not use it for advertising.'],
  },
  {
    heading: 'Cookies and local storage',
    paragraphs: [
      'TrainLab does not use advertising or tracking cookies. The web application keeps a few entries in your browser’s local storage so that you stay signed in: your session token, your roles, your e-mail, your account id and your name. It may also remember the page you were trying to open before signing in, and an anonymous device key for your cart. Signing out removes the session entries. You can clear local storage in your browser settings at any time; you will then need to sign in again.',
    ],
  },
  {
    heading: 'Sharing',
    items: [
      'With the learning provider or organization that runs your training or course.',
      'With trainers assigned to a training you attend (name and attendance only).',
      'With service providers that host the platform, send e-mail and SMS, run cloud labs and process payments, under contracts that protect your data.',
      'With authorities when the law requires it.',
    ],
  },
  {
    heading: 'Retention',
    paragraphs: [
      'We keep your account data while your account is active. Training records, results and certificates are kept so that certificates can be verified later, unless you ask us to delete them. Password reset links expire after 60 minutes. Payment records are kept for as long as tax law requires. When an account is deleted we remove or anonymise its personal data within 90 days, except where we must keep it by law.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      'Passwords are stored hashed, connections are encrypted, a new sign-in can end earlier sessions, and access to data is limited by role: learners see their own records, providers and organizations see only their own trainings and users.',
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      'You may ask for a copy of your data, ask us to correct or delete it, object to its use or withdraw consent where we rely on it. Some data is controlled by the provider or organization that enrolled you; we will pass your request on to them.',
    ],
  },
  {
    heading: 'Contact',
    paragraphs: [
      'For any privacy question or request, write to privacy@trainlab.example. We answer within 30 days. If you are not satisfied with our answer, you may complain to your data protection authority.',
    ],
  },
];

export function PrivacyPolicyPage() {
  return (
    <Stack gap="lg" maw={820}>
      <PageHeader title="Privacy Policy" description="Last updated: 1 November 2025" />
      {SECTIONS.map((s) => (
        <LegalSection key={s.heading} {...s} />
      ))}
      <Text size="sm" c="dimmed">
        We may update this policy; the date above shows the latest version. Significant changes are announced by e-mail
        to account holders.
      </Text>
    </Stack>
  );
}
