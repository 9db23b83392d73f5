/**
 * The routes a person most likely opens next from the first pages: a visitor on the landing goes to
 * the catalogue; someone on /login lands on a dashboard in the signed-in frame (most sign-ins are
 * learners). Plain data, read by the app and by the build (vite.config.ts).
 */
export const LIKELY_NEXT: Record<string, string[]> = {
  '/': ['/courses'],
  '/training-home': ['/courses'],
  '/login': ['/users'],
};

/** The signed-in frame (sidebar, account menu), which comes with any signed-in screen. */
export const SHELL = 'shell';

/**
 * The source module of each likely-next screen and of the signed-in frame: the build lists the files
 * each one loads, so the page can ask for them without running them. A test opens each route after the
 * prefetch and checks it needed no other script (e2e/tests/first-page.spec.ts).
 */
export const NEXT_MODULES: Record<string, string> = {
  '/courses': 'src/features/catalog/CatalogPages.tsx',
  // the learner dashboard, the home of individual learners (/users) and of providers' learners (/lpu-home)
  '/users': 'src/features/learner/LearnerDashboardPage.tsx',
  [SHELL]: 'src/app/layouts/ShellLayout.tsx',
};

/** The id of the build's data block (in index.html) naming those files. */
export const NEXT_FILES_ID = 'likely-next-files';
