import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  generateApiKey,
  generateClientSecret,
  hashApiKey,
  hashClientSecret,
  looksLikeApiKey,
  verifyClientSecret,
} from '../../src/credentials/secrets.ts';

describe('client secrets and API keys', () => {
  it('stores a client secret as salted scrypt and checks it', async () => {
    const secret = generateClientSecret();
    const [first, second] = [await hashClientSecret(secret), await hashClientSecret(secret)];
    assert.match(first, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(first, second, 'a fresh salt each time');
    assert.equal(first.includes(secret.slice(4)), false);
    assert.equal(await verifyClientSecret(secret, first), true);
    assert.equal(await verifyClientSecret(`${secret}x`, first), false);
    assert.equal(await verifyClientSecret(secret, 'md5$whatever'), false);
  });

  it('hashes API keys with the pepper: another pepper gives another digest', () => {
    const key = generateApiKey();
    assert.equal(looksLikeApiKey(key), true);
    assert.equal(looksLikeApiKey('eyJhbGciOi.x.y'), false);
    const digest = hashApiKey(key, Buffer.from('pepper-one'));
    assert.equal(digest.length, 32);
    assert.deepEqual(hashApiKey(key, Buffer.from('pepper-one')), digest);
    assert.notDeepEqual(hashApiKey(key, Buffer.from('pepper-two')), digest);
  });

  it('hashes an API key alike with the pepper as bytes (when stored) and as a key object (when checked)', () => {
    const key = generateApiKey();
    const pepper = Buffer.from('pepper-one');
    assert.deepEqual(hashApiKey(key, createSecretKey(pepper)), hashApiKey(key, pepper));
  });
});
