import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const account = {
  id: 5,
  bank_name: 'State Bank of India',
  bank_address: 'MG Road, Pune',
  bank_account_name: 'Tanvi Rao',
  account_type: 'Savings',
  ifsc_code: 'SBIN0001234',
  micr_code: '411002003',
  iban_code: null,
  bsr_code: '0001234',
};
const row = {
  ...account,
  account_number: 'XXXXXXXX9012',
  trainer_id: 3,
  trainer_name: 'Tanvi Rao',
  trainer_email: 'tanvi@example.test',
};

describe("admin: trainers' bank details", () => {
  it('lists accounts masked and shows one whole only when asked', async () => {
    signIn(['admin']);
    const net = stubFetch({
      'admin-bank-details-list': () => ({ body: { list: [row], total: 1, page: 1, per_page: 20 } }),
      'get-bank-details': () => ({ body: { success: { ...account, account_number: '123456789012' } } }),
    });
    renderApp('/admin/trainer-bank-details');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trainer Bank Details' })).toBeInTheDocument();
    expect((await screen.findAllByText('XXXXXXXX9012'))[0]).toBeInTheDocument();
    expect(screen.queryByText('123456789012')).toBeNull();
    expect(net.callsTo('get-bank-details')).toHaveLength(0);
    expect(net.callsTo('admin-bank-details-list')[0]?.body).toMatchObject({ page: 1, sort: 'trainer_name' });

    const user = userEvent.setup();
    await user.click(
      screen.getAllByRole('button', { name: 'Show the whole account of Tanvi Rao at State Bank of India' })[0]!,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Bank account of Tanvi Rao' });
    expect(await within(dialog).findByText('123456789012')).toBeInTheDocument();
    expect(net.callsTo('get-bank-details')[0]?.body).toEqual({ id: 5 });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('123456789012')).toBeNull());
  });

  it('is reached from the trainers list', async () => {
    signIn(['admin']);
    stubFetch({
      'trainer-list': () => ({ body: { list: [] } }),
      'admin-bank-details-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
    });
    const { router } = renderApp('/trainer/list');
    await userEvent.click(await screen.findByRole('link', { name: 'Bank details' }));
    await waitFor(() => expect(locationOf(router)).toBe('/admin/trainer-bank-details'));
    expect(await screen.findByText('No Data Found')).toBeInTheDocument();
  });
});
