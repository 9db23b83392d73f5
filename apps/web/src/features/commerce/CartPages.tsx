import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  type CartView,
  type Checkout,
  MSG,
  PAYMENT_STATUS_LABEL,
  type Paged,
  type PaymentRow,
} from '@trainlab/contract';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { REDIRECT_KEY, useSession } from '../../api/session';
import { apiDownload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { inr, toast } from './cards';
import { type CheckoutFor, confirmPaid, openCheckout } from './checkout';
import { deviceKey } from './device-cart';

export const downloadReceipt = (p: { id: number; receipt_no: string }) =>
  apiDownload('payment-receipt', { id: p.id }, `receipt-${p.receipt_no}.pdf`);

const statusColor: Record<number, string> = { 1: 'green', 2: 'red', 3: 'yellow' };
export const StatusBadge = ({ status }: { status: number }) => (
  <Badge color={statusColor[status] ?? 'gray'} variant="light">
    {PAYMENT_STATUS_LABEL[status] ?? status}
  </Badge>
);

/** A visitor who is not signed in: sign in or register first; the cart stays under the device key. */
function SignInPrompt({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const go = (to: string) => {
    localStorage.setItem(REDIRECT_KEY, '/cart');
    onClose();
    navigate(to);
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

function MyPayments() {
  const q = useApiQuery<Paged<PaymentRow>>('my-payments', { per_page: 10 });
  if (q.isLoading) return <Loading />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  if (!q.data?.list.length) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="payments-title">
      <Title order={2} size="h4" id="payments-title">
        Your payments
      </Title>
      <Table.ScrollContainer minWidth={520}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Receipt</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Items</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data.list.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => downloadReceipt(p)}>
                    {p.receipt_no}
                  </Anchor>
                </Table.Td>
                <Table.Td>{new Date(p.created_at).toLocaleDateString()}</Table.Td>
                <Table.Td>{p.items.map((i) => i.name).join(', ')}</Table.Td>
                <Table.Td>{inr(p.amount)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** /cart and /view-cart: current prices, remove, total, checkout (sign-in first, keeping the cart). */
export function CartPage() {
  const session = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = deviceKey();
  const q = useApiQuery<CartView>('show-cart', { device_key: key });
  const [busy, setBusy] = useState(false);
  const [signIn, setSignIn] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async (type: string, typeId: number) => {
    try {
      const res = await apiPost<{ message: string }>('remove-cart', { type, type_id: typeId, device_key: key });
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
          const checkout = await apiPost<Checkout>('checkout-cart', { device_key: key });
          await openCheckout(checkout, 'cart', navigate, () => client.invalidateQueries());
        } catch (e) {
          setError(errorText(e));
        } finally {
          setBusy(false);
        }
      },
    });

  const cart = q.data;
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
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label="Cart items">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th ta="right">Price</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Remove</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {cart.list.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>
                      {l.slug ? (
                        <Anchor component={Link} to={`/training-register/${l.slug}`}>
                          {l.name}
                        </Anchor>
                      ) : (
                        l.name
                      )}
                    </Table.Td>
                    <Table.Td>{l.type === 'is_course' ? 'Course' : 'Certification'}</Table.Td>
                    <Table.Td ta="right">{inr(l.price)}</Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th colSpan={2}>Total</Table.Th>
                  <Table.Th ta="right" data-testid="cart-total">
                    {inr(cart.total)}
                  </Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end" mt="md">
            <Button onClick={pay} loading={busy}>
              Pay {inr(cart.total)}
            </Button>
          </Group>
        </Card>
      )}
      {session ? <MyPayments /> : null}
      <SignInPrompt opened={signIn} onClose={() => setSignIn(false)} />
    </Stack>
  );
}

interface GatewayOrder {
  order_id: string;
  amount: number;
  amount_paise: number;
  currency: string;
  description: string;
  status: number;
}

/** /payment: the embedded test gateway's checkout page (Pay or Fail), then the signed callback to the server. */
export function PaymentPage() {
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  const purpose: CheckoutFor = params.get('for') === 'vm' ? 'vm' : 'cart';
  const client = useQueryClient();
  const q = useApiQuery<GatewayOrder>('test-gateway-order', { order_id: orderId }, { enabled: !!orderId });
  const [busy, setBusy] = useState<'pay' | 'fail' | null>(null);
  const [result, setResult] = useState<{ ok: boolean; payment?: { id: number; receipt_no: string } } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (outcome: 'pay' | 'fail') => {
    setBusy(outcome);
    setError(null);
    try {
      const cb = await apiPost<{
        razorpay_order_id: string;
        razorpay_payment_id: string;
        razorpay_signature: string | null;
      }>('test-gateway-pay', { order_id: orderId, outcome });
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
            {result.ok && result.payment ? (
              <Button variant="light" onClick={() => downloadReceipt(result.payment!)}>
                Download receipt
              </Button>
            ) : null}
            {result.ok && purpose === 'cart' ? (
              <Button component={Link} to="/user/courses/list" variant="default">
                My courses
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
