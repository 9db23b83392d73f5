import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { clippedInMain } from '../support/layout';
import { registerLearner, screenshot } from '../support/session';

// Issue 32, the buying journey of a first-time visitor: the course's own page, Add to cart, signing
// in from the cart and coming back to it, a declined payment tried again, and the purchase in
// 'My purchases'; then the course page and the cart at a phone's width with no column cut off.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Buyer#2026';
const COURSE = 'Docker from Scratch';

/** A fresh learner account (user_type 2 needs no approval). */
const newBuyer = (page: Page) =>
  registerLearner(page, { stem: 'buyer', first_name: 'Bea', last_name: 'Buyer', password: PASSWORD });

let email: string;

test('a visitor opens a course, adds it, signs in from the cart, pays after a declined try and finds it in My purchases', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  email = await newBuyer(page);

  // the catalogue's title opens the course's own page
  await page.goto('/courses');
  await page.getByRole('link', { name: COURSE, exact: true }).click();
  await expect(page).toHaveURL(/\/course-details\/docker-from-scratch/);
  await expect(page.getByRole('heading', { level: 1, name: COURSE })).toBeVisible();
  await expect(page.getByText('Images, containers, volumes and compose')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What the course covers' })).toBeVisible();
  await expect(page.getByText('₹499', { exact: true })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'buying-course-page');
  await page.getByRole('button', { name: `Add to cart: ${COURSE}` }).click();
  await expect(page.getByText('Item Added Into Cart!')).toBeVisible();
  await page.getByRole('link', { name: 'Go to cart' }).click();

  // the cart, then sign in from the checkout: back at the cart, with the visitor's item
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-total')).toHaveText('₹499');
  await page.getByRole('button', { name: 'Pay ₹499' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fcart$/);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /^login$/i }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-total')).toHaveText('₹499');

  // the gateway asks for exactly the amount shown; a declined payment can be tried again
  await page.getByRole('button', { name: 'Pay ₹499' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/payment\?order=order_test_\w+&for=cart$/);
  // the URL changes before the lazily loaded payment page replaces the cart: wait for its heading
  await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
  await expect(page.getByText('₹499', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Fail' }).click();
  await expect(page.getByText('Payment failed.')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const declined = page.url();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).not.toHaveURL(declined);
  await expect(page.getByText('₹499', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Payment successful!')).toBeVisible();

  // the purchase has a place of its own, with its receipt and next step
  await page.getByRole('link', { name: 'My purchases' }).click();
  await expect(page).toHaveURL(/\/my-purchases$/);
  const purchases = page.getByRole('table', { name: 'My purchases' });
  await expect(purchases.getByText(COURSE)).toBeVisible();
  await expect(purchases.getByRole('link', { name: 'Open the course' })).toHaveAttribute(
    'href',
    /^\/course\/docker-from-scratch/,
  );
  const download = page.waitForEvent('download');
  await purchases.getByRole('button', { name: /^Download receipt TL/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^receipt-TL\w+\.pdf$/);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'buying-my-purchases');

  // the menu leads there too, and the course cannot be bought twice
  const menu = page.getByRole('navigation', { name: /main|sidebar|menu/i }).first();
  for (const entry of ['Catalogue', 'My Courses', 'Cart', 'My purchases', 'Payments']) {
    await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
  }
  await page.goto('/courses');
  await page.getByRole('button', { name: `Add to cart: ${COURSE}` }).click();
  await expect(page.getByText('You already have this item.')).toBeVisible();
  await page.getByRole('link', { name: COURSE, exact: true }).click();
  await expect(page.getByText('You already have this course.')).toBeVisible();
  expect(errors).toEqual([]);
});

test('at 360 px the course page and the cart (items and payments) show every column', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /^login$/i }).click();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto('/courses');
  await page.getByRole('link', { name: 'Terraform on AWS', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Terraform on AWS' })).toBeVisible();
  expect(await clippedInMain(page)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'buying-course-page-360');
  await page.getByRole('button', { name: 'Add to cart: Terraform on AWS' }).click();
  await page.getByRole('link', { name: 'Go to cart' }).click();

  // a cart with a line to pay, and the payments (one declined, one paid) as cards
  await expect(page.getByTestId('cart-total')).toHaveText('₹1,299');
  const items = page.getByRole('list', { name: 'Cart items' });
  await expect(items.getByRole('link', { name: 'Terraform on AWS' })).toBeVisible();
  await expect(items.getByRole('button', { name: 'Remove Terraform on AWS' })).toBeVisible();
  const payments = page.getByRole('list', { name: 'Recent payments' });
  await expect(payments.getByRole('listitem')).toHaveCount(2);
  await expect(payments.getByText('Success')).toBeVisible();
  await expect(payments.getByText('Failed')).toBeVisible();
  expect(await clippedInMain(page)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, 'buying-cart-360');
});
