import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CERT_MSG, MSG } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

const CERT = { user_name: 'Liam Learner', training_name: 'Kubernetes Basics', ref_no: 'TL-ABC123' };

describe('certificates', () => {
  it('/certificate/:slug shows the facts, downloads the PDF and links Verify', async () => {
    signIn(['provider_user']);
    const net = stubFetch({
      'lpu/download-certificate': () => ({ body: { list: [CERT] } }),
      'certificate-pdf': () => ({ body: {} }),
    });
    const createObjectURL = vi.fn(() => 'blob:cert');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { router } = renderApp('/certificate/kube-basics');
    expect(await screen.findByText('Liam Learner')).toBeInTheDocument();
    expect(screen.getByText('Kubernetes Basics')).toBeInTheDocument();
    expect(screen.getByText('TL-ABC123')).toBeInTheDocument();
    expect(net.callsTo('lpu/download-certificate')[0]?.body).toEqual({ slug: 'kube-basics' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(net.callsTo('certificate-pdf')[0]?.body).toEqual({ slug: 'kube-basics' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    await user.click(screen.getByRole('link', { name: 'Verify' }));
    await waitFor(() => expect(locationOf(router)).toBe('/certificate/verify/TL-ABC123'));
  });

  it('/certificate/:slug shows the 403 reason clearly', async () => {
    signIn(['provider_user']);
    stubFetch({ 'lpu/download-certificate': () => ({ status: 403, body: { message: CERT_MSG.downloadNotAllowed } }) });
    renderApp('/certificate/kube-basics');
    expect(await screen.findByText(CERT_MSG.downloadNotAllowed)).toBeInTheDocument();
    expect(screen.getByText('Certificate not available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
  });

  it('/certificate/verify/:ref_no shows the facts with a Verified badge', async () => {
    const net = stubFetch({
      'verify-certificates': () => ({
        body: {
          success: {
            ...CERT,
            issuer_name: 'Demo Provider',
            start_date: '2030-01-10T09:00:00.000Z',
            end_date: '2030-01-12T17:00:00.000Z',
            issued_at: '2030-01-13T10:00:00.000Z',
          },
        },
      }),
    });
    renderApp('/certificate/verify/TL-ABC123');
    expect(await screen.findByText('Verified')).toBeInTheDocument();
    expect(screen.getByText('Liam Learner')).toBeInTheDocument();
    expect(screen.getByText('Demo Provider')).toBeInTheDocument();
    expect(screen.getByText('10 Jan 2030 to 12 Jan 2030')).toBeInTheDocument();
    expect(screen.getByText('13 Jan 2030')).toBeInTheDocument();
    expect(net.callsTo('verify-certificates')[0]?.body).toEqual({ ref_no: 'TL-ABC123' });
  });

  it('an unknown ref shows NO Certificate Found with a Contact link', async () => {
    stubFetch({ 'verify-certificates': () => ({ status: 404, body: { message: MSG.noCertificateFound } }) });
    renderApp('/certificate/verify/NOPE');
    expect(await screen.findByText(MSG.noCertificateFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/comming-soon');
  });
});
