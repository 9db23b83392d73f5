import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconShoppingCartPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { CatalogueCertification, CatalogueCourse } from '@trainlab/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { addToCart, type CartItemType } from '../payments/device-cart';

/** Rupees as ₹1,299 or ₹67.50 (paise shown only when there are any). */
/** A toast without putting the notifications package in the first page's bundle. */
export function toast(color: 'green' | 'red', message: string) {
  void import('@mantine/notifications').then((m) => m.notifications.show({ color, message }));
}

export const inr = (rupees: number) => {
  const digits = Number.isInteger(rupees) ? 0 : 2;
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
};
export const usd = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
/** spec 02 §9: ids in certification-detail URLs are base64-encoded. */
export const certificationLink = (id: number) => `/certification-details/${btoa(String(id))}`;
/** A catalogue course's own page (issue 32; /training-register/{slug} is a training's sign-up form). */
export const courseLink = (slug: string) => `/course-details/${encodeURIComponent(slug)}`;

function AddToCart({ type, id, price, name }: { type: CartItemType; id: number; price: number; name: string }) {
  const [busy, setBusy] = useState(false);
  const client = useQueryClient();
  const add = async () => {
    setBusy(true);
    try {
      const res = await addToCart(type, id, price);
      toast('green', res.message);
      await client.invalidateQueries({ queryKey: ['show-cart'] });
    } catch (e) {
      // the server's reason, e.g. 'You already have this item.'
      toast('red', errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconShoppingCartPlus size={16} aria-hidden />}
      loading={busy}
      onClick={add}
      // the name starts with the visible words, so speech control ("click Add to cart") finds it (WCAG 2.5.3)
      aria-label={`Add to cart: ${name}`}
    >
      Add to cart
    </Button>
  );
}

function RegisterButton() {
  const session = useSession();
  if (session) return null;
  return (
    <Button size="xs" variant="outline" component={Link} to="/register">
      Register
    </Button>
  );
}

export function CourseCard({ course }: { course: CatalogueCourse }) {
  return (
    <Card withBorder radius="md" padding="md" h="100%">
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={4}>
          <Anchor component={Link} to={courseLink(course.slug)} fw={600} lineClamp={2}>
            {course.name}
          </Anchor>
          {course.offered_by ? (
            <Text size="xs" c="dimmed">
              by {course.offered_by}
            </Text>
          ) : null}
          {course.description ? (
            <Text size="sm" lineClamp={3}>
              {course.description}
            </Text>
          ) : null}
        </Stack>
        <Stack gap="xs">
          <Text fw={700}>{inr(course.amount)}</Text>
          <Group gap="xs">
            <AddToCart type="is_course" id={course.id} price={course.amount} name={course.name} />
            <RegisterButton />
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}

export function CertificationCard({ cert }: { cert: CatalogueCertification }) {
  return (
    <Card withBorder radius="md" padding="md" h="100%">
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={4}>
          <Group gap={6}>
            {cert.certification_type ? <Badge variant="light">{cert.certification_type}</Badge> : null}
            <Badge variant="outline" color="gray">
              {cert.level}
            </Badge>
          </Group>
          <Anchor component={Link} to={certificationLink(cert.id)} fw={600} lineClamp={2}>
            {cert.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {[cert.product_name, cert.certification_role, cert.exam_name, cert.duration].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <Stack gap="xs">
          <Text fw={700}>
            {inr(cert.cost_inr)}{' '}
            <Text span size="sm" c="dimmed" fw={400}>
              ({usd(cert.cost_doller)})
            </Text>
          </Text>
          <Group gap="xs">
            <AddToCart type="is_certificate" id={cert.id} price={cert.cost_inr} name={cert.name} />
            <RegisterButton />
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}
