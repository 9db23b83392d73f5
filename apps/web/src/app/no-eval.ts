import { z } from 'zod';

/**
 * zod compiles fast object parsers with `new Function` when it may. The page's Content-Security-Policy
 * forbids eval, so the probe alone would be reported as a violation: parse without compiling. Imported
 * first by main.tsx, since zod decides when each schema is built.
 */
z.config({ jitless: true });
