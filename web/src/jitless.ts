/**
 * Zod compiles its object parsers with `Function(...)` when it may. The page's
 * Content-Security-Policy has no 'unsafe-eval' (docs/security.md), and even
 * zod's guarded probe counts as a violation, so the app parses without it.
 * Imported first by main.ts, before any schema runs.
 */
import { config } from 'zod';

config({ jitless: true });
