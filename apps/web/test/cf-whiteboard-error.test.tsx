import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { BOARD_LOAD_ERROR, Whiteboard } from '../src/features/conference/Whiteboard';

// the editor's chunk cannot be fetched (e.g. the connection dropped): only the third-party module fails
vi.mock('@excalidraw/excalidraw', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('whiteboard chunk failure', () => {
  it('shows an error alert instead of the board', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Providers queryClient={createQueryClient()} env="test">
        <Whiteboard scene={{ elements: [] }} />
      </Providers>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(BOARD_LOAD_ERROR);
    expect(screen.getByRole('region', { name: 'Whiteboard' })).toBeInTheDocument();
    quiet.mockRestore();
  });
});
