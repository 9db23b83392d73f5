import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const course = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Kubernetes in Practice',
  slug: 'kube-practice',
  description: 'Hands-on',
  amount: 499,
  amount_paise: 49_900,
  offered_by: 'Acme Learning',
  ...over,
});
const cert = (over: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'AWS Solutions Architect',
  level: 'Beginner',
  certification_type: 'AWS',
  certification_type_id: 1,
  product: 2,
  product_name: 'EC2',
  product_link: null,
  role: null,
  role_name: null,
  exam: null,
  exam_name: 'SAA-C03',
  exam_link: null,
  duration: '130 min',
  certification_role: 'Architect',
  certification_role_id: null,
  certification_description: 'Design resilient systems.',
  certification_prerequisites: null,
  certification_details: null,
  remark: null,
  cost_doller: 150,
  cost_inr: 12_000,
  recommended_experience: 1,
  is_set: 0,
  ...over,
});
const emptyCart = { list: [], total: 0, total_paise: 0, count: 0 };

describe('landing', () => {
  it('shows the trending courses and certifications carousels; add to cart sends the device key and toasts', async () => {
    const net = stubFetch({
      'get-home-trainings': () => ({ body: { list: [course()], courses: [course()], certifications: [cert()] } }),
      'add-cart': (b) => ({
        body: {
          ...emptyCart,
          message: b.type === 'is_course' ? MSG.itemAddedIntoCart : MSG.certificationAddedIntoCart,
        },
      }),
    });
    renderApp('/training-home');
    const courses = await screen.findByRole('region', { name: 'Course carousel' });
    // the title opens the course's own page (issue 32), not a training's sign-up form
    expect(within(courses).getByRole('link', { name: 'Kubernetes in Practice' })).toHaveAttribute(
      'href',
      '/course-details/kube-practice',
    );
    const certs = screen.getByRole('region', { name: 'Certification carousel' });
    expect(within(certs).getByRole('link', { name: 'AWS Solutions Architect' })).toHaveAttribute(
      'href',
      `/certification-details/${btoa('7')}`,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add to cart: Kubernetes in Practice' }));
    expect(await screen.findByText(MSG.itemAddedIntoCart)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to cart: AWS Solutions Architect' }));
    expect(await screen.findByText(MSG.certificationAddedIntoCart)).toBeInTheDocument();
    const sent = net.callsTo('add-cart');
    expect(sent[0]!.body).toMatchObject({ type: 'is_course', type_id: 1 });
    expect(sent[0]!.body.device_key).toBe(localStorage.getItem('device_key'));
    expect(sent[1]!.body.device_key).toBe(sent[0]!.body.device_key);
    expect(screen.getAllByRole('link', { name: 'Register' }).length).toBeGreaterThan(0);
  });

  it('a signed-in visitor goes to their role home', async () => {
    signIn(['provider']);
    stubFetch({ 'get-dashboard-data': () => ({ body: { list: [] } }) });
    const { router } = renderApp('/training-home');
    await waitFor(() => expect(locationOf(router)).toBe('/learning-provider'));
  });
});

describe('/certifications and details', () => {
  it('filters by type (AWS by default) and level on the server', async () => {
    const net = stubFetch({
      'search-by-certifications': (b) => ({
        body: { list: b.certification_type === 'Google' ? [] : [cert()], total: 1, page: 1, per_page: 12 },
      }),
    });
    renderApp('/certifications');
    expect(await screen.findByText('AWS Solutions Architect')).toBeInTheDocument();
    expect(net.callsTo('search-by-certifications')[0]!.body).toMatchObject({ certification_type: 'AWS', per_page: 12 });
    const user = userEvent.setup();
    await user.click(screen.getByText('Google'));
    expect((await screen.findAllByText(MSG.noDataFound))[0]).toBeInTheDocument();
    expect(net.callsTo('search-by-certifications').at(-1)!.body).toMatchObject({ certification_type: 'Google' });
  });

  it('the details page shows the cost in dollars and rupees', async () => {
    const net = stubFetch({ 'get-certification-details': () => ({ body: { success: cert() } }) });
    renderApp(`/certification-details/${btoa('7')}`);
    const facts = await screen.findByRole('table', { name: 'Certification facts' });
    expect(within(facts).getByText('$150')).toBeInTheDocument();
    expect(within(facts).getByText('₹12,000')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'AWS Solutions Architect' })).toBeInTheDocument();
    expect(net.callsTo('get-certification-details')[0]!.body).toEqual({ id: 7 });
  });
});

describe('cart and payment', () => {
  it('an empty cart shows Data Not Found', async () => {
    stubFetch({ 'show-cart': () => ({ body: emptyCart }) });
    renderApp('/cart');
    expect(await screen.findByText(MSG.dataNotFound)).toBeInTheDocument();
  });

  it('Pay asks for confirmation; a visitor is asked to sign in or register and the cart is kept', async () => {
    const net = stubFetch({
      'show-cart': () => ({
        body: {
          list: [
            {
              id: 1,
              type: 'is_course',
              type_id: 1,
              name: 'Kubernetes in Practice',
              slug: 'k',
              price: 499,
              price_paise: 49_900,
              owned: false,
            },
          ],
          total: 499,
          total_paise: 49_900,
          count: 1,
        },
      }),
    });
    const { router } = renderApp('/cart');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay ₹499' }));
    expect(await screen.findByText(MSG.confirmPayment)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Sign in or register to pay. Your cart is kept.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    // the way back is in the address: signing in returns to the cart
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/cart')}`);
    expect(net.callsTo('checkout-cart')).toHaveLength(0);
    expect(net.callsTo('remove-cart')).toHaveLength(0);
  });

  it('signed in: the order opens the test checkout; Pay sends the signed callback and offers the receipt', async () => {
    signIn(['user']);
    const net = stubFetch({
      'show-cart': () => ({
        body: {
          list: [
            {
              id: 1,
              type: 'is_course',
              type_id: 1,
              name: 'Kubernetes in Practice',
              slug: 'k',
              price: 499,
              price_paise: 49_900,
              owned: false,
            },
          ],
          total: 499,
          total_paise: 49_900,
          count: 1,
        },
      }),
      'my-payments': () => ({ body: { list: [], total: 0, page: 1, per_page: 10 } }),
      'checkout-cart': () => ({
        body: {
          id: 5,
          receipt_no: 'TLX1',
          gateway: 'test',
          key_id: 'test_gateway',
          order_id: 'order_test_1',
          amount: 499,
          amount_paise: 49_900,
          currency: 'INR',
          description: 'Kubernetes in Practice',
          checkout_url: '/payment?order=order_test_1',
        },
      }),
      'test-gateway-order': () => ({
        body: {
          order_id: 'order_test_1',
          amount: 499,
          amount_paise: 49_900,
          currency: 'INR',
          description: 'Receipt TLX1',
          status: 3,
        },
      }),
      'test-gateway-pay': () => ({
        body: {
          outcome: 'pay',
          razorpay_order_id: 'order_test_1',
          razorpay_payment_id: 'pay_1',
          razorpay_signature: 'sig',
        },
      }),
      'verify-payment': () => ({
        body: { message: MSG.paymentSuccess, payment: { id: 5, receipt_no: 'TLX1', status: 1 } },
      }),
    });
    const { router } = renderApp('/view-cart');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay ₹499' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(locationOf(router)).toBe('/payment'));
    expect(router.state.location.search).toBe('?order=order_test_1&for=cart');
    await user.click(await screen.findByRole('button', { name: 'Pay' }));
    expect(await screen.findByText(MSG.paymentSuccess)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download receipt' })).toBeInTheDocument();
    expect(net.callsTo('verify-payment')[0]!.body).toEqual({
      outcome: 'pay',
      razorpay_order_id: 'order_test_1',
      razorpay_payment_id: 'pay_1',
      razorpay_signature: 'sig',
    });
  });

  it('Fail on the test checkout shows Failed and reports it', async () => {
    signIn(['user']);
    const net = stubFetch({
      'test-gateway-order': () => ({
        body: { order_id: 'o1', amount: 10, amount_paise: 1000, currency: 'INR', description: 'x', status: 3 },
      }),
      'test-gateway-pay': () => ({
        body: { outcome: 'fail', razorpay_order_id: 'o1', razorpay_payment_id: 'pay_2', razorpay_signature: null },
      }),
      'payment-failed': () => ({ body: { message: MSG.paymentFailed, payment: { id: 1, status: 2 } } }),
    });
    renderApp('/payment?order=o1&for=vm');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fail' }));
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(net.callsTo('payment-failed')).toHaveLength(1);
    expect(net.callsTo('save-vm-payment-data')).toHaveLength(0);
  });
});

describe('VM billing', () => {
  it('/cloud-payment: Pay is disabled at 0 and enabled above', async () => {
    signIn(['provider']);
    let total = 0;
    stubFetch({
      'vm-payment-data': () => ({
        body: {
          total_cost: total / 100,
          total_cost_paise: total,
          list: total
            ? [
                {
                  id: 1,
                  name: 'Lab 1',
                  created: null,
                  deleted: null,
                  used_min: 90,
                  total_cost: 42.5,
                  first_name: 'A',
                  last_name: 'B',
                  email: 'a@b.c',
                  mobile_no: null,
                },
              ]
            : [],
        },
      }),
    });
    const first = renderApp('/cloud-payment');
    expect(await screen.findByRole('heading', { name: 'Pay VM Billing' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay' })).toBeDisabled());
    first.unmount();
    total = 4_250;
    renderApp('/cloud-payment');
    expect(await screen.findByText('Lab 1')).toBeInTheDocument();
    expect(screen.getByTestId('vm-total')).toHaveTextContent('₹42.50');
    expect(screen.getByText('1.50 h (90 min)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay' })).toBeEnabled();
  });

  it('/cloud-payment lists a ₹0.00 run beside the others, each linked to its VM Details (issue 41)', async () => {
    signIn(['provider']);
    const row = (id: number, used_min: number, paise: number) => ({
      id,
      name: 'Demo Ubuntu Lab',
      vm_name: 'tl-demo',
      created: '2026-11-20T10:00:00.000Z',
      deleted: null,
      vm_start: '2026-11-20T10:00:00.000Z',
      vm_stop: '2026-11-20T11:30:00.000Z',
      used_min,
      total_cost: paise / 100,
      total_cost_paise: paise,
      first_name: 'Liam',
      last_name: 'Learner',
      email: 'l@demo.test',
      mobile_no: null,
    });
    stubFetch({
      'vm-payment-data': () => ({
        body: { total_cost: 0.12, total_cost_paise: 12, list: [row(1, 90, 8), row(2, 45, 4), row(3, 1, 0)] },
      }),
    });
    renderApp('/cloud-payment');
    await screen.findAllByRole('link', { name: 'Demo Ubuntu Lab' });
    const table = screen.getByRole('table', { name: 'Unpaid VM usage' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').at(-1)?.textContent)).toEqual(['₹0.08', '₹0.04', '₹0.00']);
    expect(within(rows[0]!).getByRole('link', { name: 'Demo Ubuntu Lab' })).toHaveAttribute(
      'href',
      '/vm-details/tl-demo',
    );
    expect(screen.getByTestId('vm-total')).toHaveTextContent('₹0.12');
    expect(screen.getByText(/price per hour \(on its VM Details\) × its minutes ÷ 60/)).toBeInTheDocument();
  });

  it('/vm-payments-history lists payments with their status', async () => {
    signIn(['organization']);
    stubFetch({
      'vm-payments-history': () => ({
        body: {
          list: [
            {
              id: 1,
              receipt_no: 'TL1',
              payment_id: 'pay_1',
              order_id: 'o',
              purpose: 'vm',
              created_at: '2026-01-01T00:00:00Z',
              amount: 42.5,
              amount_paise: 4250,
              status: 1,
              items: [],
            },
            {
              id: 2,
              receipt_no: 'TL2',
              payment_id: null,
              order_id: 'o2',
              purpose: 'vm',
              created_at: '2026-01-02T00:00:00Z',
              amount: 10,
              amount_paise: 1000,
              status: 2,
              items: [],
            },
          ],
          total: 2,
          page: 1,
          per_page: 20,
        },
      }),
    });
    renderApp('/vm-payments-history');
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download receipt TL1' })).toBeInTheDocument();
  });
});
