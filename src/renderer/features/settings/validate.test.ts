import { describe, expect, it } from 'vitest';
import { settingFields, settingsPatch } from '../../../shared/settings';
import { urlProblem, wholeNumberProblem } from './validate';

// The settings form checks with the contract's schemas: what it lets through is what a save
// accepts, and what it refuses is worded as the core words it (capitalised, as a sentence).

describe('the settings form checks', () => {
  it('a base URL as a save would, in the same words', () => {
    expect(urlProblem('not a url')).toBe('Not a URL: write it in full, e.g. http://127.0.0.1:11434/v1.');
    expect(urlProblem('ftp://example.com')).toMatch(/^Must be an http\(s\) URL/);
    expect(urlProblem('http://me:secret@example.com/v1')).toMatch(/^Leave the user name and password out/);
    expect(urlProblem('  ')).toBeUndefined();
    expect(urlProblem('', true)).toMatch(/^Enter the server’s base URL/);
    for (const url of ['not a url', 'ftp://example.com', 'http://me:secret@example.com/v1', 'http://127.0.0.1:11434/v1/', 'https://api.example.com']) {
      const saved = settingsPatch.safeParse({ chat: { baseUrl: url } }).success;
      expect(urlProblem(url) === undefined, url).toBe(saved);
    }
  });

  it('whole numbers against each setting’s own bounds', () => {
    expect(wholeNumberProblem('', settingFields.reviewEvery)).toBe('Enter a number.');
    expect(wholeNumberProblem('2.5', settingFields.reviewEvery)).toBe('Enter a whole number.');
    expect(wholeNumberProblem('0', settingFields.reviewEvery)).toBe('At least 1.');
    expect(wholeNumberProblem('1001', settingFields.reviewEvery)).toBe('At most 1000.');
    expect(wholeNumberProblem('1000', settingFields.reviewEvery)).toBeUndefined();
    expect(wholeNumberProblem('1999', settingFields.contextBudgetTokens)).toBe('At least 2000 tokens.');
    expect(wholeNumberProblem('2000001', settingFields.contextBudgetTokens)).toBe('At most 2,000,000 tokens.');
    expect(wholeNumberProblem('1537', settingFields.dimensions)).toBe('At most 1536, the size the database holds.');
    expect(wholeNumberProblem('768', settingFields.dimensions)).toBeUndefined();
  });
});
