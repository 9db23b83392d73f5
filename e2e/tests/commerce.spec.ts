import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { login, screenshot, uniqueEmail } from '../support/session';

// The provider journey signs in as provider@demo.test; one session per account, so one after another.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Shopper#2026';

async function api<T>(page: Page, path: string, body: unknown = {}): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await page.request.post(`/api/${path}`, {
    data: body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return (await res.json()) as T;
}

test('a visitor fills a cart, registers, the cart survives sign-in, pays on the test checkout and is enrolled', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/training-home');
  const courses = page.getByRole('region', { name: 'Course carousel' });
  await expect(courses.getByRole('link', { name: 'Docker from Scratch' })).toBeVisible();
  await screenshot(page, 'commerce-landing');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Add to cart: Docker from Scratch' }).click();
  await expect(page.getByText('Item Added Into Cart!')).toBeVisible();
  const certs = page.getByRole('region', { name: 'Certification carousel' });
  await certs.getByRole('button', { name: /^Add to cart: AWS Certified/ }).click();
  await expect(page.getByText('Certification Added Into Cart!')).toBeVisible();

  await page.goto('/cart');
  await expect(page.getByRole('cell', { name: 'Docker from Scratch', exact: true })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText('₹12,999');
  await screenshot(page, 'commerce-cart');
  await page.getByRole('button', { name: 'Pay ₹12,999' }).click();
  await expect(page.getByText('Are you sure want to make continue payment?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Register' }).click();

  const email = uniqueEmail('shopper');
  await page.getByRole('radio', { name: 'User', exact: true }).check();
  await page.getByRole('textbox', { name: 'First name' }).fill('Sam');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Shopper');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Mobile no' }).fill('9876501234');
  await page.getByRole('button', { name: /register/i }).click();
  // registering from the cart keeps the way back through the sign-in
  await expect(page).toHaveURL(/\/login\?next=%2Fcart$/);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /^login$/i }).click();
  // back to the cart (the stored redirect), with the visitor's items now in the account's cart
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-total')).toHaveText('₹12,999');
  await page.getByRole('button', { name: 'Pay ₹12,999' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/payment\?order=order_test_\w+&for=cart$/);
  // the URL changes before the lazily loaded payment page replaces the cart: wait for its heading
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
  await expect(page.getByText('₹12,999', { exact: true })).toBeVisible();
  await screenshot(page, 'commerce-test-checkout');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Payment successful!')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download receipt' }).click();
  expect((await download).suggestedFilename()).toMatch(/^receipt-TL\w+\.pdf$/);

  // the purchase is recorded: the cart is empty, the payment shows Success, and the course is owned
  await page.goto('/cart');
  await expect(page.getByText('Data Not Found')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your payments' }).getByText('Success')).toBeVisible();
  await screenshot(page, 'commerce-cart-paid');
  const home = await api<{ courses: { id: number; name: string }[] }>(page, 'get-home-trainings');
  const docker = home.courses.find((c) => c.name === 'Docker from Scratch')!;
  // already enrolled: the cart refuses it, and there is nothing left to buy
  const refused = await api<{ type_id?: string[] }>(page, 'add-cart', { type: 'is_course', type_id: docker.id });
  expect(refused.type_id).toEqual(['You already have this item.']);
  const again = await api<{ cart?: string[] }>(page, 'checkout-cart');
  expect(again.cart).toEqual(['Your cart is empty.']);
  expect(errors).toEqual([]);
});

test('a provider pays the VM bill and sees it in the history; a failed payment shows Failed and changes nothing', async ({
  page,
}) => {
  await login(page, 'provider@demo.test');
  await expect(page).toHaveURL(/\/learning-provider$/);
  await page.goto('/cloud-payment');
  // the demo lab's two runs at its price: 90 and 45 min at ₹0.0547/h = ₹0.08 + ₹0.04 (decision 0053)
  await expect(page.getByTestId('vm-total')).toHaveText('₹0.12');
  await screenshot(page, 'commerce-cloud-payment');

  // first attempt fails
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/payment\?order=.*&for=vm$/);
  await page.getByRole('button', { name: 'Fail' }).click();
  await expect(page.getByText('Failed', { exact: true })).toBeVisible();
  await page.goto('/vm-payments-history');
  await expect(page.getByRole('table').getByText('Failed')).toBeVisible();
  await page.goto('/cloud-payment');
  await expect(page.getByTestId('vm-total')).toHaveText('₹0.12');

  // then it succeeds
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Payment successful!')).toBeVisible();
  await page.getByRole('link', { name: 'Payment history' }).click();
  await expect(page.getByRole('table').getByText('Success')).toBeVisible();
  await screenshot(page, 'commerce-vm-history');
  await page.goto('/cloud-payment');
  await expect(page.getByTestId('vm-total')).toHaveText('₹0.00');
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeDisabled();
});
