import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { refuseFirst, stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

describe('admin master data screens', () => {
  beforeEach(() => signIn(['admin']));

  it('categories: lists, adds and edits in one modal that closes when done', async () => {
    let list = [{ id: 1, name: 'Cloud', slug: 'cloud' }];
    const net = stubFetch({
      'category-list': () => ({ body: { list } }),
      'create-category': (b) => {
        if (b.name === 'Cloud') return { status: 422, body: { name: ['The name has already been taken.'] } };
        list = [...list, { id: 2, name: String(b.name), slug: 'devops' }];
        return { body: { message: MSG.recordAdded, id: 2 } };
      },
      'update-category': () => ({ body: { message: MSG.recordUpdated, id: 1 } }),
    });
    renderApp('/admin/categories');
    const user = userEvent.setup();
    expect(await screen.findByText('cloud')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Add Category/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Add Category' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The name field is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Cloud');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The name has already been taken.')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: /^Name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'DevOps');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('devops')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Cloud' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Category' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Cloud');
    await user.clear(name);
    await user.type(name, 'Cloud Computing');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(net.callsTo('update-category')[0]?.body).toEqual({ id: 1, name: 'Cloud Computing', slug: 'cloud' });
  });

  it('services: list shows Sr.No, the option label and the edit link', async () => {
    stubFetch({
      'service-list': () => ({
        body: { list: [{ id: 4, service: 'TRAINING (Per Day)', price: 75, valid_date: null }] },
      }),
    });
    renderApp('/service/list');
    const table = await screen.findByRole('table', { name: 'Services' });
    expect(await within(table).findByText('TRAINING (Per Hours)')).toBeInTheDocument();
    expect(within(table).getByText('Sr.No')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Edit TRAINING (Per Hours)' })).toHaveAttribute(
      'href',
      '/service/edit/4',
    );
    expect(screen.getByRole('link', { name: /Add Service/ })).toHaveAttribute('href', '/service/create');
  });

  it('services: create sends the body, shows 422 under Service, toasts and goes to the list', async () => {
    const net = stubFetch({
      'service-list': () => ({ body: { list: [] } }),
      'create-service': refuseFirst(
        { service: ['The service has already been taken.'] },
        { message: MSG.serviceCreated, id: 5 },
      ),
    });
    const { router } = renderApp('/service/create');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByRole('combobox', { name: /^Service/ }), 'PRE-ASSESSMENT (Per Test)');
    await user.type(screen.getByRole('textbox', { name: /^Price/ }), '40');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The service has already been taken.')).toBeInTheDocument();
    expect(net.callsTo('create-service')[0]?.body).toEqual({
      service: 'PRE-ASSESSMENT (Per Test)',
      price: '40',
      valid_date: null,
    });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(locationOf(router)).toBe('/service/list'));
    expect((await screen.findAllByText(MSG.serviceCreated)).length).toBeGreaterThan(0);
  });

  it('services: edit loads the record and sends its id', async () => {
    const net = stubFetch({
      'get-service': () => ({
        body: { success: { id: 4, service: 'TRAINING (Per Day)', price: 75, valid_date: null } },
      }),
      'update-service': () => ({ body: { message: MSG.serviceCreated, id: 4 } }),
      'service-list': () => ({ body: { list: [] } }),
    });
    const { router } = renderApp('/service/edit/4');
    const user = userEvent.setup();
    const price = await screen.findByRole('textbox', { name: /^Price/ });
    expect(price).toHaveValue('75');
    await user.clear(price);
    await user.type(price, '80');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(locationOf(router)).toBe('/service/list'));
    expect(net.callsTo('update-service')[0]?.body).toEqual({
      id: 4,
      service: 'TRAINING (Per Day)',
      price: '80',
      valid_date: null,
    });
  });

  it('VM pricing: shows rows and storage, updates a row with per-field errors, reloads after success', async () => {
    const net = stubFetch({
      'get-pricing': () => ({
        body: {
          list: [
            {
              id: 1,
              memory: 2,
              virtual_cpu: 1,
              cl_linux_price: 0.02,
              cl_windows_price: 0.05,
              linux: 0.03,
              windows: 0.07,
            },
          ],
          storage_price: 0.17,
          cl_storage_price: 0.12,
        },
      }),
      'update-vm-pricing': refuseFirst(
        { windows: ['The windows must be at least 0.'] },
        { message: MSG.recordUpdated },
      ),
    });
    renderApp('/admin/vm-pricing-chart');
    const user = userEvent.setup();
    expect(await screen.findByText('2 GB')).toBeInTheDocument();
    expect(screen.getByText('0.17')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to home/ })).toHaveAttribute('href', '/admin/home');
    await user.click(screen.getByRole('button', { name: 'Update 2 GB pricing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update VM pricing' });
    const linux = within(dialog).getByRole('textbox', { name: /^Linux platform/ });
    expect(linux).toHaveValue('0.03');
    await user.clear(linux);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(within(dialog).getByText('The linux field is required.')).toBeInTheDocument();
    await user.type(linux, '0.04');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('The windows must be at least 0.')).toBeInTheDocument();
    expect(net.callsTo('update-vm-pricing')[0]?.body).toEqual({
      id: 1,
      cl_linux: '0.02',
      linux: '0.04',
      cl_windows: '0.05',
      windows: '0.07',
      cl_storage: '0.12',
      storage: '0.17',
    });
    const before = net.callsTo('get-pricing').length;
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(net.callsTo('get-pricing').length).toBeGreaterThan(before));
  });
});
