import { z } from 'zod';

// The page's policy allows no eval (src/shared/csp.ts). Left to itself, zod probes for eval
// with `new Function` as soon as an object schema is built (the contract's schemas in
// src/shared), and the browser reports that probe as a policy violation even though zod
// catches it: so the page's zod runs without compiled parsers and never probes.
z.config({ jitless: true });
