import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, menuForRoles } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { DEMO_PASSWORD, locationOf, renderApp, signIn } from './render-app';

// The buying journey of issue 32: course and certification pages, owned items, my purchases,
// payments, Try again, and signing in from the cart.

const courseDetails = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Kubernetes in Practice',
  slug: 'kube-practice',
  description: 'Run real workloads on a cluster.',
  amount: 1_299.5,
  amount_paise: 129_950,
  offered_by: 'Acme Learning',
  owned: false,
  modules: [
    {
      id: 10,
      name: 'Basics',
      topics: [
        { name: 'What is a pod', duration_seconds: 300 },
        { name: 'Services', duration_seconds: null },
      ],
    },
    { id: 11, name: 'Helm', topics: [{ name: 'Charts', duration_seconds: 610 }] },
  ],
  ...over,
});

const cert = {
  id: 7,
  name: 'AWS Solutions Architect',
  level: 'Associate',
  certification_type: 'AWS',
  certification_type_id: 1,
  product: 2,
  product_name: 'EC2',
  product_link: null,
  role: null,
  role_name: null,
  exam: null,
  exam_name: 'SAA-C03',
  exam_link: 'https://aws.amazon.com/certification/',
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
};

const refused = { status: 422, body: { type_id: [MSG.alreadyOwned] } };
const line = (over: Record<string, unknown> = {}) => ({
  id: 1,
  type: 'is_course',
  type_id: 1,
  name: 'Kubernetes in Practice',
  slug: 'kube-practice',
  price: 1_299,
  price_paise: 129_900,
  owned: false,
  ...over,
});

describe('/course-details/{slug}', () => {
  it('shows the course, its modules and price; Add to cart offers the way to the cart', async () => {
    const net = stubFetch({
      'get-catalogue-course': () => ({ body: courseDetails() }),
      'add-cart': () => ({ body: { list: [], total: 0, total_paise: 0, count: 1, message: MSG.itemAddedIntoCart } }),
    });
    renderApp('/course-details/kube-practice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kubernetes in Practice' })).toBeInTheDocument();
    expect(net.callsTo('get-catalogue-course')[0]!.body).toEqual({ slug: 'kube-practice' });
    expect(screen.getByText('Offered by Acme Learning')).toBeInTheDocument();
    expect(screen.getByText('Run real workloads on a cluster.')).toBeInTheDocument();
    expect(screen.getByText('₹1,299.50')).toBeInTheDocument();
    expect(screen.getByText('Basics')).toBeInTheDocument();
    expect(screen.getByText('2 topics')).toBeInTheDocument();
    expect(screen.getByText('What is a pod')).toBeInTheDocument();
    expect(screen.getByText('· 5 min')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add to cart: Kubernetes in Practice' }));
    expect(await screen.findByText(MSG.itemAddedIntoCart)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to cart' })).toHaveAttribute('href', '/cart');
    expect(net.callsTo('add-cart')[0]!.body).toMatchObject({ type: 'is_course', type_id: 1 });
  });

  it('a refused add (422) shows the server’s message in the page', async () => {
    signIn(['user']);
    stubFetch({ 'get-catalogue-course': () => ({ body: courseDetails() }), 'add-cart': () => refused });
    renderApp('/course-details/kube-practice');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add to cart: Kubernetes in Practice' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.alreadyOwned);
    expect(screen.queryByRole('link', { name: 'Go to cart' })).toBeNull();
  });

  it('an owned course offers to open it instead of Add to cart', async () => {
    signIn(['user']);
    stubFetch({ 'get-catalogue-course': () => ({ body: courseDetails({ owned: true }) }) });
    renderApp('/course-details/kube-practice');
    expect(await screen.findByText('You already have this course.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the course' })).toHaveAttribute('href', '/course/kube-practice');
    expect(screen.queryByRole('button', { name: /Add to cart/ })).toBeNull();
  });

  it('empty (not for sale: 404), no modules yet, and error states', async () => {
    stubFetch({ 'get-catalogue-course': () => ({ status: 404, body: { message: 'Not Found' } }) });
    const gone = renderApp('/course-details/nope');
    expect(await screen.findByText('This course is not in the catalogue.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse courses' })).toHaveAttribute('href', '/courses');
    gone.unmount();

    stubFetch({ 'get-catalogue-course': () => ({ body: courseDetails({ modules: [] }) }) });
    const bare = renderApp('/course-details/kube-practice');
    expect(await screen.findByText('The modules of this course are being prepared.')).toBeInTheDocument();
    bare.unmount();

    stubFetch({ 'get-catalogue-course': () => ({ status: 500, body: { message: 'Internal Server Error.' } }) });
    renderApp('/course-details/kube-practice');
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal Server Error.');
  });
});

describe('/certification-details/{id}', () => {
  it('a page with Add to cart; a refused add (422) shows its message', async () => {
    signIn(['user']);
    const net = stubFetch({
      'get-certification-details': () => ({ body: { success: cert } }),
      'add-cart': () => refused,
    });
    renderApp(`/certification-details/${btoa('7')}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'AWS Solutions Architect' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add to cart: AWS Solutions Architect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.alreadyOwned);
    expect(net.callsTo('add-cart')[0]!.body).toMatchObject({ type: 'is_certificate', type_id: 7 });
  });

  it('an id that does not decode, or is unknown, says so', async () => {
    stubFetch({ 'get-certification-details': () => ({ status: 404, body: { message: 'Not Found' } }) });
    const first = renderApp('/certification-details/not-base64!');
    expect(await screen.findByText('This certification is not in the catalogue.')).toBeInTheDocument();
    first.unmount();
    renderApp(`/certification-details/${btoa('99')}`);
    expect(await screen.findByText('This certification is not in the catalogue.')).toBeInTheDocument();
  });
});

describe('cart with an item the buyer already has', () => {
  it('marks it, leaves it out of the total, and a refused checkout (422) shows its message', async () => {
    signIn(['user']);
    const net = stubFetch({
      'show-cart': () => ({
        body: {
          list: [
            line({ owned: true }),
            line({
              id: 2,
              type: 'is_certificate',
              type_id: 7,
              name: 'AWS SA',
              slug: null,
              price: 499,
              price_paise: 49_900,
            }),
          ],
          total: 499,
          total_paise: 49_900,
          count: 2,
        },
      }),
      'my-payments': () => ({ body: { list: [], total: 0, page: 1, per_page: 5 } }),
      'checkout-cart': () => ({ status: 422, body: { cart: [MSG.cartEmptyCheckout] } }),
    });
    renderApp('/cart');
    expect(await screen.findByText('You already have this')).toBeInTheDocument();
    expect(screen.getByTestId('cart-total')).toHaveTextContent('₹499');
    expect(screen.getByText(/You already have one item in your cart/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Kubernetes in Practice' })).toHaveAttribute(
      'href',
      '/course-details/kube-practice',
    );
    expect(screen.getByRole('link', { name: 'AWS SA' })).toHaveAttribute('href', `/certification-details/${btoa('7')}`);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pay ₹499' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(MSG.cartEmptyCheckout)).toBeInTheDocument();
    expect(net.callsTo('checkout-cart')).toHaveLength(1);
  });

  it('only owned items: nothing to pay', async () => {
    signIn(['user']);
    stubFetch({
      'show-cart': () => ({ body: { list: [line({ owned: true })], total: 0, total_paise: 0, count: 1 } }),
      'my-payments': () => ({ body: { list: [], total: 0, page: 1, per_page: 5 } }),
    });
    renderApp('/view-cart');
    expect(await screen.findByRole('button', { name: 'Pay ₹0' })).toBeDisabled();
  });
});

const purchase = (over: Record<string, unknown> = {}) => ({
  id: 3,
  kind: 'course',
  ref_id: 1,
  name: 'Terraform Basics',
  amount: 499,
  amount_paise: 49_900,
  bought_at: '2026-03-01T10:00:00.000Z',
  payment_id: 9,
  receipt_no: 'TL9',
  course_slug: 'terraform-basics',
  exam_link: null,
  ...over,
});

describe('/my-purchases', () => {
  it('lists what was bought with its receipt and next step', async () => {
    signIn(['user']);
    const net = stubFetch({
      'my-purchases': () => ({
        body: {
          list: [
            purchase(),
            purchase({
              id: 4,
              kind: 'certification',
              ref_id: 7,
              name: 'AWS SA',
              course_slug: null,
              exam_link: 'https://exam.example/book',
            }),
          ],
          total: 2,
          page: 1,
          per_page: 20,
        },
      }),
    });
    renderApp('/my-purchases');
    expect(await screen.findByText('Terraform Basics')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the course' })).toHaveAttribute('href', '/course/terraform-basics');
    expect(screen.getByRole('link', { name: 'Book the exam (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://exam.example/book',
    );
    expect(screen.getAllByRole('button', { name: 'Download receipt TL9' })).toHaveLength(2);
    expect(net.callsTo('my-purchases')[0]!.body).toMatchObject({ sort: '-bought_at' });
    expect(net.callsTo('my-purchases')[0]!.body).not.toHaveProperty('user_id');
  });

  it('empty: says nothing was bought and points to the catalogue', async () => {
    signIn(['user']);
    stubFetch({ 'my-purchases': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }) });
    renderApp('/my-purchases');
    expect(await screen.findByText('You have not bought anything yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse the catalogue' })).toHaveAttribute('href', '/courses');
  });

  it('a refused call (422) shows its message', async () => {
    signIn(['user']);
    stubFetch({ 'my-purchases': () => ({ status: 422, body: { sort: ['The sort must be one of: bought_at.'] } }) });
    renderApp('/my-purchases');
    expect(await screen.findByRole('alert')).toHaveTextContent('The sort must be one of: bought_at.');
  });
});

describe('/my-payments', () => {
  it('lists every payment with its status; a refused call (422) shows its message', async () => {
    signIn(['user']);
    stubFetch({
      'my-payments': () => ({
        body: {
          list: [
            {
              id: 9,
              receipt_no: 'TL9',
              payment_id: null,
              order_id: 'o9',
              purpose: 'cart',
              created_at: '2026-03-01T10:00:00.000Z',
              amount: 499,
              amount_paise: 49_900,
              status: 2,
              items: [{ kind: 'course', ref_id: 1, name: 'Terraform Basics', amount: 499 }],
            },
          ],
          total: 1,
          page: 1,
          per_page: 20,
        },
      }),
    });
    const first = renderApp('/my-payments');
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('Terraform Basics')).toBeInTheDocument();
    first.unmount();
    stubFetch({
      'my-payments': () => ({ status: 422, body: { per_page: ['The per page must not be greater than 100.'] } }),
    });
    renderApp('/my-payments');
    expect(await screen.findByRole('alert')).toHaveTextContent('The per page must not be greater than 100.');
  });
});

describe('a failed payment', () => {
  const gatewayOrder = (id: string) => ({
    body: { order_id: id, amount: 499, amount_paise: 49_900, currency: 'INR', description: 'x', status: 3 },
  });

  it('offers Try again, which opens a new order for the cart', async () => {
    signIn(['user']);
    const net = stubFetch({
      'test-gateway-order': (b) => gatewayOrder(String(b.order_id)),
      'test-gateway-pay': () => ({
        body: { outcome: 'fail', razorpay_order_id: 'o1', razorpay_payment_id: 'p1', razorpay_signature: null },
      }),
      'payment-failed': () => ({ body: { message: MSG.paymentFailed, payment: { id: 1, status: 2 } } }),
      'checkout-cart': () => ({
        body: {
          id: 2,
          receipt_no: 'TL2',
          gateway: 'test',
          key_id: 'test',
          order_id: 'o2',
          amount: 499,
          amount_paise: 49_900,
          currency: 'INR',
          description: 'x',
          checkout_url: '/payment?order=o2',
        },
      }),
    });
    const { router } = renderApp('/payment?order=o1&for=cart');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fail' }));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(router.state.location.search).toBe('?order=o2&for=cart'));
    // a fresh checkout for the new order, not the last one's outcome
    expect(await screen.findByRole('button', { name: 'Pay' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(net.callsTo('checkout-cart')).toHaveLength(1);
  });

  it('a refused retry (422) shows its message', async () => {
    signIn(['provider']);
    stubFetch({
      'test-gateway-order': (b) => gatewayOrder(String(b.order_id)),
      'test-gateway-pay': () => ({
        body: { outcome: 'fail', razorpay_order_id: 'o1', razorpay_payment_id: 'p1', razorpay_signature: null },
      }),
      'payment-failed': () => ({ body: { message: MSG.paymentFailed, payment: { id: 1, status: 2 } } }),
      'vm-checkout': () => ({ status: 422, body: { total_cost: [MSG.nothingToPay] } }),
    });
    renderApp('/payment?order=o1&for=vm');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fail' }));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(MSG.nothingToPay)).toBeInTheDocument();
  });
});

describe('signing in from the cart', () => {
  it('/login?next=/cart comes back to the cart; a next to another site is ignored', async () => {
    const login = () => ({
      body: {
        success: {
          token: 'tok-user',
          roles: ['user'],
          role: 'user',
          first_name: 'Sam',
          last_name: 'Shopper',
          email: 'sam@demo.test',
          mobile_no: '9876543210',
          slug: 'sam',
          _id: 5,
        },
      },
    });
    stubFetch({
      login,
      'merge-cart': () => ({ body: { list: [], total: 0, total_paise: 0, count: 0 } }),
      'show-cart': () => ({ body: { list: [], total: 0, total_paise: 0, count: 0 } }),
      'my-payments': () => ({ body: { list: [], total: 0, page: 1, per_page: 5 } }),
      'get-dashboard-data': () => ({ body: { list: [] } }),
    });
    const user = userEvent.setup();
    const first = renderApp(`/login?next=${encodeURIComponent('/cart')}`);
    await user.type(await screen.findByLabelText(/^Email/), 'sam@demo.test');
    await user.type(screen.getByLabelText(/^Password/), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(locationOf(first.router)).toBe('/cart'));
    first.unmount();
    localStorage.clear();

    const second = renderApp(`/login?next=${encodeURIComponent('//evil.example/cart')}`);
    await user.type(await screen.findByLabelText(/^Email/), 'sam@demo.test');
    await user.type(screen.getByLabelText(/^Password/), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(locationOf(second.router)).toBe('/users'));
  });

  it('the site header’s Login on the cart carries the way back', async () => {
    stubFetch({ 'show-cart': () => ({ body: { list: [], total: 0, total_paise: 0, count: 0 } }) });
    renderApp('/cart');
    const header = await screen.findByRole('banner');
    expect(within(header).getAllByRole('link', { name: 'Login' })[0]).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent('/cart')}`,
    );
  });
});

describe('the user’s menu', () => {
  it('has the catalogue, their courses, the cart, their purchases and payments', () => {
    expect(menuForRoles(['user']).map((m) => [m.label, m.path])).toEqual([
      ['Dashboard', '/users'],
      ['Catalogue', '/courses'],
      ['My Courses', '/user/courses/list'],
      ['Cart', '/view-cart'],
      ['My purchases', '/my-purchases'],
      ['Payments', '/my-payments'],
      ['My Trainings', '/my-trainings'],
    ]);
  });
});
