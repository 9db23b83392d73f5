import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const CERT = {
  id: 3,
  name: 'AWS Solutions Architect',
  level: 'Intermediate',
  certification_type: 'AWS',
  certification_type_id: 11,
  product: 12,
  product_name: 'Amazon Web Services',
  product_link: 'https://aws.amazon.com/',
  role: 13,
  role_name: 'Architect',
  exam: 14,
  exam_name: 'SAA-C03',
  exam_link: null,
  duration: '130 minutes',
  certification_role: 'Solutions Architect',
  certification_role_id: 15,
  certification_description: 'Design on AWS.',
  certification_prerequisites: null,
  certification_details: null,
  remark: null,
  cost_doller: 150,
  cost_inr: 12500,
  recommended_experience: 1,
  is_set: 0,
};

const MASTER_IDS = { CertificationType: 11, Product: 12, RolesType: 13, Exam: 14, CertificationRoles: 15 };
type MasterType = keyof typeof MASTER_IDS;

/** The master lists as the server answers them, with items added by create-certification-master. */
function masterStub() {
  const items: { id: number; type: MasterType; name: string; description: null; overview: null }[] = (
    Object.keys(MASTER_IDS) as MasterType[]
  ).map((type) => ({ id: MASTER_IDS[type], type, name: `${type} one`, description: null, overview: null }));
  return {
    'certification-master-list': (body: Record<string, unknown>) => ({
      body: { list: items.filter((i) => i.type === body.type) },
    }),
    'create-certification-master': (body: Record<string, unknown>) => {
      if (items.some((i) => i.type === body.type && i.name === body.name))
        return { status: 422, body: { name: [MSG.nameTaken] } };
      const id = 100 + items.length;
      items.push({ id, type: body.type as MasterType, name: String(body.name), description: null, overview: null });
      return { body: { message: MSG.recordAdded, id } };
    },
  };
}

async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  const select = screen.getByRole('combobox', { name: new RegExp(`^${label}`) });
  await waitFor(() => expect(within(select).getByRole('option', { name: option })).toBeInTheDocument());
  await user.selectOptions(select, option);
}

describe('certification screens', () => {
  beforeEach(() => signIn(['admin']));

  it('lists certifications with type, product, level and both costs, and searches on the server', async () => {
    const all = [CERT, { ...CERT, id: 4, name: 'Azure Fundamentals', certification_type: 'Microsoft' }];
    const net = stubFetch({
      'certification-list': (b) => {
        const search = String(b.search ?? '').toLowerCase();
        const list = all.filter((c) => c.name.toLowerCase().includes(search));
        return { body: { list, total: list.length, page: 1, per_page: 20 } };
      },
    });
    renderApp('/certification/list');
    const table = await screen.findByRole('table', { name: 'Certifications' });
    expect(await within(table).findByText('AWS Solutions Architect')).toBeInTheDocument();
    const row = within(table).getByText('AWS Solutions Architect').closest('tr') as HTMLElement;
    expect(within(row).getByText('Amazon Web Services')).toBeInTheDocument();
    expect(within(row).getByText('$150 / ₹12500')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Edit AWS Solutions Architect' })).toHaveAttribute(
      'href',
      '/certification/edit/3',
    );
    expect(screen.getByRole('link', { name: /Add Certification/ })).toHaveAttribute('href', '/certification/create');
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Search' }), 'azure');
    await waitFor(() => expect(within(table).queryByText('AWS Solutions Architect')).toBeNull());
    expect(within(table).getByText('Azure Fundamentals')).toBeInTheDocument();
    expect(net.callsTo('certification-list').at(-1)?.body).toMatchObject({ search: 'azure', page: 1, sort: 'name' });
  });

  it('shows No Data Found for an empty list', async () => {
    stubFetch({ 'certification-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }) });
    renderApp('/certification/list');
    expect((await screen.findAllByText(MSG.noDataFound)).length).toBeGreaterThan(0);
  });

  it('shows the error text when the list fails', async () => {
    stubFetch({ 'certification-list': () => ({ status: 405, body: {} }) });
    renderApp('/certification/list');
    expect(await screen.findByText(MSG.methodNotAllowed)).toBeInTheDocument();
  });

  it('views details in a modal and deletes after confirmation, then reloads', async () => {
    let list = [CERT];
    const net = stubFetch({
      'certification-list': () => ({ body: { list, total: list.length, page: 1, per_page: 20 } }),
      'delete-certification': () => {
        list = [];
        return { body: { message: MSG.recordDeleted } };
      },
    });
    renderApp('/certification/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'View AWS Solutions Architect' }));
    const dialog = await screen.findByRole('dialog', { name: 'AWS Solutions Architect' });
    expect(within(dialog).getByText('SAA-C03')).toBeInTheDocument();
    expect(within(dialog).getByText('Design on AWS.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'AWS Solutions Architect' })).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete AWS Solutions Architect' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete certification' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(MSG.recordDeleted)).toBeInTheDocument();
    expect(net.callsTo('delete-certification')[0]?.body).toEqual({ id: 3 });
    expect((await screen.findAllByText(MSG.noDataFound)).length).toBeGreaterThan(0);
  });

  it('adds a new master entry through Add New (duplicate name shown under name) and selects it', async () => {
    const net = stubFetch({
      ...masterStub(),
      'certification-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
    });
    renderApp('/certification/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add New Exam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Exam' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The name field is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('The description field is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('The overview field is required.')).toBeInTheDocument();
    expect(net.callsTo('create-certification-master')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Exam one');
    await user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'desc');
    await user.type(within(dialog).getByRole('textbox', { name: /^Overview/ }), 'over');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(MSG.nameTaken)).toBeInTheDocument();

    await user.clear(within(dialog).getByRole('textbox', { name: /^Name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'DVA-C02');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Exam' })).toBeNull());
    expect(net.callsTo('create-certification-master').at(-1)?.body).toEqual({
      type: 'Exam',
      name: 'DVA-C02',
      description: 'desc',
      overview: 'over',
    });
    const exam = screen.getByRole('combobox', { name: /^Exam/ }) as HTMLSelectElement;
    await waitFor(() => expect(exam.selectedOptions[0]?.textContent).toBe('DVA-C02'));
  });

  it('creates a certification with the right body, shows 422 under the field, then goes to the list', async () => {
    let fail = true;
    const net = stubFetch({
      ...masterStub(),
      'certification-list': () => ({ body: { list: [CERT] } }),
      'create-certification': () => {
        if (fail) {
          fail = false;
          return { status: 422, body: { cost_inr: ['The cost inr must be at least 0.'] } };
        }
        return { body: { message: MSG.recordAdded, id: 9 } };
      },
    });
    const { router } = renderApp('/certification/create');
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: /Back to list/ })).toHaveAttribute('href', '/certification/list');
    expect(screen.getByRole('button', { name: /Download template/ })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'New Cert');
    await pick(user, 'Level', 'Advance');
    await pick(user, 'Certification Type', 'CertificationType one');
    await pick(user, 'Product', 'Product one');
    await pick(user, 'Role', 'RolesType one');
    await pick(user, 'Exam', 'Exam one');
    await pick(user, 'Certification Role', 'CertificationRoles one');
    await user.type(screen.getByRole('textbox', { name: /^Cost \(\$\)/ }), '99');
    await user.type(screen.getByRole('textbox', { name: /^Cost \(₹\)/ }), '-1');
    await user.type(screen.getByRole('textbox', { name: /^Certification Description/ }), 'About it');
    await user.click(screen.getByRole('button', { name: 'Create Certification' }));
    expect(await screen.findByText('The cost inr must be at least 0.')).toBeInTheDocument();
    expect(net.callsTo('create-certification')[0]?.body).toMatchObject({
      name: 'New Cert',
      level: 'Advance',
      certification_type: 11,
      product: 12,
      role: 13,
      exam: 14,
      certification_role: 15,
      cost_doller: '99',
      cost_inr: '-1',
      recommended_experiance: '0',
      exam_link: null,
      certification_description: 'About it',
    });

    await user.clear(screen.getByRole('textbox', { name: /^Cost \(₹\)/ }));
    await user.type(screen.getByRole('textbox', { name: /^Cost \(₹\)/ }), '8000');
    await user.click(screen.getByRole('button', { name: 'Create Certification' }));
    await waitFor(() => expect(locationOf(router)).toBe('/certification/list'));
    expect((await screen.findAllByText(MSG.recordAdded)).length).toBeGreaterThan(0);
  });

  it('edits a prefilled certification and sends its id', async () => {
    const net = stubFetch({
      ...masterStub(),
      'get-certification': () => ({ body: { success: CERT } }),
      'update-certification': () => ({ body: { message: MSG.recordUpdated, id: 3 } }),
      'certification-list': () => ({ body: { list: [CERT] } }),
    });
    const { router } = renderApp('/certification/edit/3');
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('AWS Solutions Architect');
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: /^Product/ }) as HTMLSelectElement).value).toBe('12'),
    );
    await user.clear(name);
    await user.type(name, 'AWS SA Renamed');
    await user.click(screen.getByRole('button', { name: 'Update Certification' }));
    await waitFor(() => expect(locationOf(router)).toBe('/certification/list'));
    expect(net.callsTo('get-certification')[0]?.body).toEqual({ id: 3 });
    expect(net.callsTo('update-certification')[0]?.body).toMatchObject({
      id: 3,
      name: 'AWS SA Renamed',
      product: 12,
      certification_role: 15,
      recommended_experiance: '1',
    });
    expect(await screen.findByText(MSG.recordUpdated)).toBeInTheDocument();
  });
});
