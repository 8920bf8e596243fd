import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { METHOD_ARGS } from '../../shared/contract';
import { handlers } from './handlers';

// Each method's arguments are written once, in src/shared/contract (docs/contract.md): the core
// serves the very schema the page and the tools use, or extends it with a check only the core
// can make, never a copy of its own.

/** The methods whose shared schema the core extends in place (a platform path, a database URL). */
const EXTENDED = new Set(['settings.set', 'database.test', 'database.copyAndSwitch']);

const json = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

describe('the handler table and the contract', () => {
  it('serve exactly the contract’s methods', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(METHOD_ARGS).sort());
  });

  it('check each method with the contract’s own schema, or one that extends it and takes the same arguments', () => {
    for (const [method, schema] of Object.entries(METHOD_ARGS)) {
      const served = handlers[method as keyof typeof handlers].schema as z.ZodType;
      if (EXTENDED.has(method)) expect(json(served), method).toEqual(json(schema));
      else expect(served, method).toBe(schema);
    }
  });
});
