import { Anchor, Button, Card, Grid, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconSend, IconShieldCheck } from '@tabler/icons-react';
import { MSG, type registerTrainingStudentResponse } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { ApiError, apiPost, toFormErrors } from '../../api/client';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';

type RegisterResponse = z.infer<typeof registerTrainingStudentResponse>;
type Channel = 'mobile' | 'email';

/** Shown when the server answers 404: the training does not exist or is not open for registration. */
export const TRAINING_UNAVAILABLE = 'This training is not open for registration (it does not exist or is not public).';

const initialValues = { first_name: '', last_name: '', email: '', mobile_no: '', email_otp: '', mobile_otp: '' };
type Values = typeof initialValues;
const required = (label: string) => (v: string) => (v.trim() ? null : `The ${label} field is required.`);
/** The registration as sent: every value trimmed, in the form's order, and the training's slug. */
const bodyOf = (v: Values, slug: string) => ({
  first_name: v.first_name.trim(),
  last_name: v.last_name.trim(),
  email: v.email.trim(),
  mobile_no: v.mobile_no.trim(),
  email_otp: v.email_otp.trim(),
  mobile_otp: v.mobile_otp.trim(),
  slug,
});

const CHANNELS = {
  mobile: {
    target: 'mobile_no',
    otp: 'mobile_otp',
    send: 'mobile-otp-register',
    verify: 'verify-mobile-otp',
    verified: MSG.mobileVerified,
  },
  email: {
    target: 'email',
    otp: 'email_otp',
    send: 'email-otp-register',
    verify: 'verify-email-otp',
    verified: MSG.emailVerified,
  },
} as const;

/** /training-register/:slug — public student registration with e-mail and mobile one-time codes (spec 02 §2, §4). */
export function TrainingRegisterPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const { form, otherError, setOtherError } = useApiForm<Values, 'register-training-student'>({
    path: 'register-training-student',
    initialValues,
    validate: {
      first_name: required('first name'),
      last_name: required('last name'),
      email: (v) =>
        required('email')(v) ?? (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'The email must be a valid email address.'),
      mobile_no: required('mobile no'),
    },
    // the page submits itself (both codes verified first), with this body
    toBody: (values) => bodyOf(values, slug),
  });
  /** the destination each code was verified for: editing the e-mail or mobile asks for a new code */
  const [verifiedFor, setVerifiedFor] = useState<Record<Channel, string | null>>({ mobile: null, email: null });
  const [sentTo, setSentTo] = useState<Record<Channel, string | null>>({ mobile: null, email: null });
  const [busy, setBusy] = useState<string | null>(null);
  const [done, setDone] = useState<RegisterResponse | null>(null);
  const v = form.getValues();
  const isVerified = (c: Channel) => verifiedFor[c] !== null && verifiedFor[c] === v[CHANNELS[c].target].trim();

  /** Puts a failed call's messages under the fields this form has, the rest at the top. */
  function showErrors(error: unknown, fallbackField?: keyof Values) {
    const mapped = toFormErrors(error);
    const top: string[] = [];
    for (const [field, message] of Object.entries(mapped.fields)) {
      if (field in initialValues) form.setFieldError(field, message);
      else top.push(message);
    }
    if (mapped.other_error && fallbackField) form.setFieldError(fallbackField, mapped.other_error);
    else if (mapped.other_error) top.unshift(mapped.other_error);
    if (top.length) setOtherError(top.join(' '));
  }

  async function sendCode(c: Channel) {
    const ch = CHANNELS[c];
    const check = form.validateField(ch.target);
    if (check.hasError) return;
    const body =
      c === 'mobile' ? { mobile_no: v.mobile_no.trim() } : { email: v.email.trim(), first_name: v.first_name.trim() };
    form.clearFieldError(ch.target);
    setBusy(ch.send);
    try {
      const res = await apiPost(ch.send, body);
      setSentTo((s) => ({ ...s, [c]: res.message }));
    } catch (error) {
      showErrors(error, ch.target);
    } finally {
      setBusy(null);
    }
  }

  async function verifyCode(c: Channel) {
    const ch = CHANNELS[c];
    const code = v[ch.otp].trim();
    if (!code) {
      form.setFieldError(ch.otp, 'Enter the OTP you received.');
      return;
    }
    form.clearFieldError(ch.otp);
    setBusy(ch.verify);
    try {
      const target = v[ch.target].trim();
      await (c === 'mobile'
        ? apiPost('verify-mobile-otp', { mobile_no: target, mobile_otp: code })
        : apiPost('verify-email-otp', { email: target, email_otp: code }));
      setVerifiedFor((s) => ({ ...s, [c]: v[ch.target].trim() }));
    } catch (error) {
      showErrors(error, ch.otp);
    } finally {
      setBusy(null);
    }
  }

  const onSubmit = form.onSubmit(async (values) => {
    setOtherError(null);
    if (!isVerified('mobile') || !isVerified('email')) {
      setOtherError(MSG.verifyEmailOrMobile);
      return;
    }
    setBusy('submit');
    try {
      setDone(await apiPost('register-training-student', bodyOf(values, slug)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setOtherError(TRAINING_UNAVAILABLE);
      else showErrors(error);
    } finally {
      setBusy(null);
    }
  });

  if (done) {
    return (
      <Stack maw={640}>
        <PageHeader title={title} />
        <SuccessAlert message={done.message} />
        <Group>
          <Button component={Link} to="/login">
            Go to Login
          </Button>
        </Group>
      </Stack>
    );
  }

  const channelBlock = (c: Channel, label: string, type: string) => {
    const ch = CHANNELS[c];
    const verified = isVerified(c);
    return (
      <Stack gap="xs">
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={label}
            type={type}
            withAsterisk
            required
            description={sentTo[c] && !verified ? sentTo[c] : undefined}
            {...form.getInputProps(ch.target)}
          />
          <Button
            mt={25}
            variant="light"
            leftSection={<IconSend size={14} aria-hidden />}
            loading={busy === ch.send}
            disabled={verified}
            onClick={() => void sendCode(c)}
            aria-label={`Send OTP to ${c === 'mobile' ? 'mobile' : 'email'}`}
          >
            Send OTP
          </Button>
        </Group>
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={c === 'mobile' ? 'Mobile OTP' : 'Email OTP'}
            inputMode="numeric"
            autoComplete="one-time-code"
            disabled={verified}
            {...form.getInputProps(ch.otp)}
          />
          <Button
            mt={25}
            variant="light"
            leftSection={<IconShieldCheck size={14} aria-hidden />}
            loading={busy === ch.verify}
            disabled={verified}
            onClick={() => void verifyCode(c)}
            aria-label={`Verify ${c === 'mobile' ? 'mobile' : 'email'} OTP`}
          >
            Verify
          </Button>
        </Group>
        {verified ? (
          <Group gap={6} c="green" role="status">
            <IconCircleCheck size={16} aria-hidden />
            <Text size="sm" c="green">
              {ch.verified}
            </Text>
          </Group>
        ) : null}
      </Stack>
    );
  };

  return (
    <Stack maw={760}>
      <PageHeader title={title} description="Register for this training. Verify your e-mail and mobile no first." />
      <Card withBorder radius="md" padding="lg" component="form" onSubmit={onSubmit} noValidate>
        <ErrorAlert message={otherError} />
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="First name"
              withAsterisk
              required
              autoComplete="given-name"
              {...form.getInputProps('first_name')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Last name"
              withAsterisk
              required
              autoComplete="family-name"
              {...form.getInputProps('last_name')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>{channelBlock('email', 'Email', 'email')}</Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>{channelBlock('mobile', 'Mobile no', 'tel')}</Grid.Col>
        </Grid>
        <Group justify="space-between" mt="xl" wrap="wrap">
          <Text size="sm" c="dimmed">
            Already registered?{' '}
            <Anchor component={Link} to="/login" underline="always">
              Login
            </Anchor>
          </Text>
          <Button type="submit" loading={busy === 'submit'}>
            Submit
          </Button>
        </Group>
      </Card>
    </Stack>
  );
}
