import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { refuseFirst, stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

describe('admin master data: lab limits', () => {
  beforeEach(() => signIn(['admin']));

  it('lists each tenant with what runs against its limits; the admin sets them, empty for none', async () => {
    const net = stubFetch({
      'lab-tenant-limits': () => ({
        body: {
          list: [
            {
              id: 3,
              kind: 'organization',
              tenant: 'Acme Learning',
              username: 'acme-labs',
              max_running_labs: 50,
              max_running_ram_gb: null,
              running_labs: 12,
              running_ram_gb: 24,
            },
          ],
        },
      }),
      'update-lab-tenant-limits': refuseFirst(
        { max_running_labs: ['The max running labs must be at least 1.'] },
        { message: MSG.recordUpdated },
      ),
    });
    renderApp('/admin/lab-limits');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Lab limits' });
    expect(await within(table).findByText('Acme Learning')).toBeInTheDocument();
    expect(within(table).getByText('12 of 50')).toBeInTheDocument();
    expect(within(table).getByText('24 GB of no limit')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update lab limits of Acme Learning' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update lab limits' });
    const labs = within(dialog).getByRole('textbox', { name: /^Labs running at once/ });
    const ram = within(dialog).getByRole('textbox', { name: /^RAM of running labs/ });
    expect(labs).toHaveValue('50');
    expect(ram).toHaveValue('');
    await user.clear(labs);
    await user.type(labs, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('The max running labs must be at least 1.')).toBeInTheDocument();
    await user.clear(labs);
    await user.type(labs, '60');
    await user.type(ram, '128');
    const before = net.callsTo('lab-tenant-limits').length;
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('update-lab-tenant-limits')[1]?.body).toEqual({
      id: 3,
      max_running_labs: '60',
      max_running_ram_gb: '128',
    });
    await waitFor(() => expect(net.callsTo('lab-tenant-limits').length).toBeGreaterThan(before));
  });
});
