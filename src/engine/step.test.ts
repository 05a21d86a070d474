import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { siteOf } from './step.ts';

describe('the site a host belongs to', () => {
  it('is its last two labels, three under a registry short label, and an address or a single name itself', () => {
    assert.equal(siteOf('docs.acme.dev'), 'acme.dev');
    assert.equal(siteOf('acme.dev'), 'acme.dev');
    assert.equal(siteOf('shop.acme.co.uk'), 'acme.co.uk');
    assert.equal(siteOf('api.github.com:443'), 'github.com');
    // two servers of this machine, or two addresses, are two sites
    assert.notEqual(siteOf('localhost:3000'), siteOf('localhost:8080'));
    assert.notEqual(siteOf('10.0.0.5:80'), siteOf('10.0.0.6:80'));
  });
});
