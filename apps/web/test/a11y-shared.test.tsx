import { DEFAULT_THEME } from '@mantine/core';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { contrastRatio, filledFor } from '../src/app/theme';
import { useFocusHeadingOnNavigate } from '../src/app/use-focus-heading';
import { confirmAction } from '../src/ui/confirm';
import { UploadProgress } from '../src/ui/UploadProgress';

describe('theme contrast', () => {
  it('every colour of the palette gets a filled shade that carries white text at 4.5:1 or more', () => {
    for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
      const filled = filledFor(shades);
      expect(contrastRatio(filled, '#fff'), name).toBeGreaterThanOrEqual(4.5);
    }
    // green 8 (Mantine's filled green for this theme) was 3.4:1: it is darkened
    expect(contrastRatio(DEFAULT_THEME.colors.green[8], '#fff')).toBeLessThan(4.5);
    // indigo 8 already passes and is kept
    expect(filledFor(DEFAULT_THEME.colors.indigo)).toBe(DEFAULT_THEME.colors.indigo[8]);
  });

  it('computes the WCAG ratio (black on white 21:1, a colour on itself 1:1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 1);
    expect(contrastRatio('#6c757d', '#6c757d')).toBe(1);
    expect(contrastRatio('#6c757d', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

function Frame() {
  useFocusHeadingOnNavigate();
  return (
    <>
      <nav>
        <Link to="/one">One</Link>
        <Link to="/two">Two</Link>
        <Link to="/form">Form</Link>
      </nav>
      <Outlet />
    </>
  );
}

function FormPage() {
  return (
    <>
      <h1>Form</h1>
      {/* biome-ignore lint/a11y/noAutofocus: a screen that moves focus itself keeps it */}
      <input aria-label="Name" autoFocus />
    </>
  );
}

function renderFrame() {
  const router = createMemoryRouter(
    [
      {
        element: <Frame />,
        children: [
          { path: '/one', element: <h1>Page one</h1> },
          { path: '/two', element: <h1>Page two</h1> },
          { path: '/form', element: <FormPage /> },
        ],
      },
    ],
    { initialEntries: ['/one'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('focus after a route change', () => {
  it('leaves focus alone on the first load, then moves it to the new page heading', async () => {
    renderFrame();
    expect(screen.getByRole('heading', { name: 'Page one' })).not.toHaveFocus();
    await userEvent.click(screen.getByRole('link', { name: 'Two' }));
    const heading = await screen.findByRole('heading', { name: 'Page two' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('keeps the focus a screen gave itself', async () => {
    renderFrame();
    await userEvent.click(screen.getByRole('link', { name: 'Form' }));
    const field = await screen.findByRole('textbox', { name: 'Name' });
    await new Promise((r) => setTimeout(r, 50));
    expect(field).toHaveFocus();
  });
});

describe('confirmation dialog', () => {
  it('returns focus to the button that opened it when it closes', async () => {
    render(
      <Providers queryClient={createQueryClient()} env="test">
        <button
          type="button"
          onClick={() => confirmAction({ title: 'Delete it', message: 'Are you sure?', onConfirm: () => undefined })}
        >
          Delete
        </button>
      </Providers>,
    );
    const opener = screen.getByRole('button', { name: 'Delete' });
    await userEvent.click(opener);
    const no = await screen.findByRole('button', { name: 'No' });
    await userEvent.click(no);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});

describe('upload progress', () => {
  it('announces the upload at quarter steps in a live region, then the follow-up text', () => {
    const wrap = (value: number) => (
      <Providers queryClient={createQueryClient()} env="test">
        <UploadProgress value={value} doneText="Checking the video…" />
      </Providers>
    );
    const { rerender } = render(wrap(37));
    expect(screen.getByRole('status')).toHaveTextContent('Upload 25% done.');
    expect(screen.getByText('Uploading… 37%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '37');
    act(() => rerender(wrap(52)));
    expect(screen.getByRole('status')).toHaveTextContent('Upload 50% done.');
    act(() => rerender(wrap(100)));
    expect(screen.getByRole('status')).toHaveTextContent('Upload complete. Checking the video…');
  });
});
