import { describe, expect, it } from 'vitest';
import { expressApp } from '../../src/http/express-app.js';

describe('the Express app', () => {
  it("has the service's settings: exact routing, simple query strings, no ETag or X-Powered-By", () => {
    const app = expressApp();
    expect(app.enabled('case sensitive routing')).toBe(true);
    expect(app.enabled('strict routing')).toBe(true);
    expect(app.get('query parser')).toBe('simple');
    expect(app.enabled('etag')).toBe(false);
    expect(app.enabled('x-powered-by')).toBe(false);
  });
});
