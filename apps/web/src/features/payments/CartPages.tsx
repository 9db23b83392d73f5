import { Alert, Anchor, Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type CartLine, type CartType, MSG } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useSession, withNext } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { certificationLink, courseLink, inr, toast } from '../catalog/cards';
import { type CheckoutFor, confirmPaid, openCheckout } from './checkout';
import { deviceKey } from './device-cart';
import { PaymentsTable } from './PaymentsTable';
import { downloadReceipt } from './payment-status';

/** A visitor who is not signed in: sign in or register first; the cart stays under the device key. */
function SignInPrompt({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  // back to the cart afterwards, by the address itself (a stored link is lost when another tab signs in)
  const go = (to: '/login' | '/register') => {
    onClose();
    navigate(withNext(to, '/cart'));
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Sign in to continue">
      <Stack>
        <Text size="sm">Sign in or register to pay. Your cart is kept.</Text>
        <Group>
          <Button onClick={() => go('/login')}>Sign in</Button>
          <Button variant="default" onClick={() => go('/register')}>
            Register
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The latest payments under the cart; all of them are on /my-payments. */
function RecentPayments() {
  const q = useApiQuery('my-payments', { per_page: 5 });
  if (!q.isLoading && !q.error && !q.data?.list.length) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="payments-title">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h4" id="payments-title">
          Your payments
        </Title>
        <Anchor component={Link} to="/my-payments" size="sm">
          All payments
        </Anchor>
      </Group>
      <PaymentsTable records={q.data?.list} loading={q.isLoading} error={q.error} label="Recent payments" />
    </Stack>
  );
}

const itemLink = (l: CartLine) =>
  l.type === 'is_course' && l.slug
    ? courseLink(l.slug)
    : l.type === 'is_certificate'
      ? certificationLink(l.type_id)
      : null;

/**
 * /cart and /view-cart: current prices, remove, total, checkout (sign-in first, keeping the cart).
 * Lines the buyer already has stay in sight, marked and not counted: the total shown is the amount
 * checkout asks for (the server computes both the same way).
 */
export function CartPage() {
  const session = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = deviceKey();
  const q = useApiQuery('show-cart', { device_key: key });
  const [busy, setBusy] = useState(false);
  const [signIn, setSignIn] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async (type: CartType, typeId: number) => {
    try {
      const res = await apiPost('remove-cart', { type, type_id: typeId, device_key: key });
      toast('green', res.message);
    } catch (e) {
      setError(errorText(e));
    }
    await client.invalidateQueries({ queryKey: ['show-cart'] });
  };

  const pay = () =>
    confirmAction({
      title: 'Payment',
      message: MSG.confirmPayment,
      onConfirm: async () => {
        if (!session) return setSignIn(true);
        setBusy(true);
        setError(null);
        try {
          const checkout = await apiPost('checkout-cart', { device_key: key });
          await openCheckout(checkout, 'cart', navigate, () => client.invalidateQueries());
        } catch (e) {
          setError(errorText(e));
        } finally {
          setBusy(false);
        }
      },
    });

  const cart = q.data;
  const owned = cart?.list.filter((l) => l.owned).length ?? 0;
  const columns: DataTableColumn<CartLine>[] = [
    {
      accessor: 'name',
      title: 'Item',
      render: (l) => {
        const to = itemLink(l);
        return to ? (
          <Anchor component={Link} to={to}>
            {l.name}
          </Anchor>
        ) : (
          l.name
        );
      },
    },
    { accessor: 'type', title: 'Type', render: (l) => (l.type === 'is_course' ? 'Course' : 'Certification') },
    {
      accessor: 'price',
      title: 'Price',
      textAlign: 'right',
      render: (l) =>
        l.owned ? (
          <Group gap={6} justify="flex-end" wrap="wrap">
            <Text span size="sm" td="line-through" c="dimmed">
              {inr(l.price)}
            </Text>
            <Badge color="gray" variant="light">
              You already have this
            </Badge>
          </Group>
        ) : (
          inr(l.price)
        ),
    },
    {
      accessor: 'actions',
      title: 'Remove',
      render: (l) => (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
          aria-label={`Remove ${l.name}`}
          onClick={() => remove(l.type, l.type_id)}
        >
          Remove
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <PageHeader title="Cart" />
      <ErrorAlert message={error} />
      {q.isLoading ? (
        <Loading />
      ) : q.error ? (
        <ErrorAlert message={errorText(q.error)} />
      ) : !cart?.list.length ? (
        <Text c="dimmed" ta="center" py="xl">
          {MSG.dataNotFound}
        </Text>
      ) : (
        <Card withBorder>
          <Stack>
            <DataTable label="Cart items" records={cart.list} columns={columns} serial={false} />
            {owned ? (
              <Text size="sm" c="dimmed">
                {owned === 1
                  ? 'You already have one item in your cart. It is not charged; you can remove it.'
                  : `You already have ${owned} items in your cart. They are not charged; you can remove them.`}
              </Text>
            ) : null}
            <Group justify="space-between" wrap="wrap">
              <Text fw={700}>
                Total{' '}
                <Text span fw={700} data-testid="cart-total">
                  {inr(cart.total)}
                </Text>
              </Text>
              <Button onClick={pay} loading={busy} disabled={cart.total_paise <= 0}>
                Pay {inr(cart.total)}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
      {session ? <RecentPayments /> : null}
      <SignInPrompt opened={signIn} onClose={() => setSignIn(false)} />
    </Stack>
  );
}

/** /payment: the embedded test gateway's checkout page (Pay or Fail), then the signed callback to the server. */
export function PaymentPage() {
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  const purpose: CheckoutFor = params.get('for') === 'vm' ? 'vm' : 'cart';
  // a new order (Try again) starts a fresh page, not the last one's outcome
  return <GatewayCheckout key={orderId} orderId={orderId} purpose={purpose} />;
}

function GatewayCheckout({ orderId, purpose }: { orderId: string; purpose: CheckoutFor }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const q = useApiQuery('test-gateway-order', { order_id: orderId }, { enabled: !!orderId });
  const [busy, setBusy] = useState<'pay' | 'fail' | null>(null);
  const [result, setResult] = useState<{ ok: boolean; payment?: { id: number; receipt_no: string } } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);

  const act = async (outcome: 'pay' | 'fail') => {
    setBusy(outcome);
    setError(null);
    try {
      const cb = await apiPost('test-gateway-pay', { order_id: orderId, outcome });
      if (outcome === 'pay' && cb.razorpay_signature) {
        const res = await confirmPaid(purpose, { ...cb, razorpay_signature: cb.razorpay_signature });
        setResult({ ok: true, payment: res.payment });
      } else {
        await apiPost('payment-failed', { razorpay_order_id: orderId, reason: 'Declined on the test checkout' });
        setResult({ ok: false });
      }
      await client.invalidateQueries();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  /** After a failure: a new order for what is still due (the cart as it is now, or the unpaid VM usage). */
  const tryAgain = async () => {
    setRetrying(true);
    setError(null);
    try {
      const checkout = await apiPost(
        purpose === 'vm' ? 'vm-checkout' : 'checkout-cart',
        purpose === 'vm' ? {} : { device_key: deviceKey() },
      );
      await openCheckout(checkout, purpose, navigate, () => client.invalidateQueries());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setRetrying(false);
    }
  };

  const back = purpose === 'vm' ? '/vm-payments-history' : '/cart';
  return (
    <Stack maw={520} mx="auto">
      <PageHeader title="Payment" description="Test checkout: no card is charged." />
      <ErrorAlert message={error} />
      {!orderId ? (
        <Text c="dimmed">{MSG.dataNotFound}</Text>
      ) : q.isLoading ? (
        <Loading />
      ) : q.error ? (
        <ErrorAlert message={errorText(q.error)} />
      ) : result ? (
        <Stack>
          {result.ok ? (
            <SuccessAlert message={MSG.paymentSuccess} />
          ) : (
            <Alert color="red" role="alert" title="Failed">
              {MSG.paymentFailed} Nothing was charged.
            </Alert>
          )}
          <Group>
            {result.ok ? null : (
              <Button onClick={tryAgain} loading={retrying}>
                Try again
              </Button>
            )}
            {result.ok && result.payment ? (
              <Button variant="light" onClick={() => downloadReceipt(result.payment!)}>
                Download receipt
              </Button>
            ) : null}
            {result.ok && purpose === 'cart' ? (
              <Button component={Link} to="/my-purchases" variant="default">
                My purchases
              </Button>
            ) : null}
            <Button component={Link} to={back} variant="default">
              {purpose === 'vm' ? 'Payment history' : 'Back to cart'}
            </Button>
          </Group>
        </Stack>
      ) : q.data ? (
        <Card withBorder>
          <Stack>
            <Text size="sm" c="dimmed">
              Order {q.data.order_id}
            </Text>
            <Text size="xl" fw={700}>
              {inr(q.data.amount)}
            </Text>
            <Text size="sm">{q.data.description}</Text>
            {q.data.status === 1 ? (
              <SuccessAlert message="This order is already paid." />
            ) : (
              <Group>
                <Button color="green" onClick={() => act('pay')} loading={busy === 'pay'} disabled={busy !== null}>
                  Pay
                </Button>
                <Button
                  color="red"
                  variant="light"
                  onClick={() => act('fail')}
                  loading={busy === 'fail'}
                  disabled={busy !== null}
                >
                  Fail
                </Button>
              </Group>
            )}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
