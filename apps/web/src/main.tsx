// before anything that builds a schema (see the file)
import './app/no-eval';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// the date pickers' and the data table's styles come with the screens that use them (their chunks'
// CSS), so the first page's render-blocking stylesheet does not carry them
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

// The first render is a transition: React renders in slices of a few milliseconds and lets the
// browser breathe between them, instead of one long task of building the whole page (on a slow
// phone that task kept the page from answering a tap for most of a second). Nothing is shown before
// the whole tree is ready, so the page still appears at once.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
