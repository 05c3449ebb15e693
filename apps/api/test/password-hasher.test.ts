import {
  createScryptPasswordHasher,
  nodePasswordHasher,
  SCRYPT_PARAMETERS,
} from '../src/infrastructure/node-password-hasher';

const PASSWORD = 'correct horse battery staple';
/** RFC 7914 §12's second test vector: scrypt("password", "NaCl", N=1024, r=8, p=16, 64 bytes), stored in this format. */
const RFC_7914_VECTOR =
  'scrypt$1024$8$16$TmFDbA$_bq-HJ00cgB4VucZDQHp_nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG_xCSedmDDaxyevuUqD7m2DYMvfoswGQA';

describe('the scrypt password hasher', () => {
  it('stores scrypt$N$r$p$salt$hash with the current parameters, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await nodePasswordHasher.hash(PASSWORD);

    const [name, n, r, p, salt, hash] = stored.split('$');
    expect([name, Number(n), Number(r), Number(p)]).toEqual([
      'scrypt',
      SCRYPT_PARAMETERS.N,
      SCRYPT_PARAMETERS.r,
      SCRYPT_PARAMETERS.p,
    ]);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(stored).not.toContain(PASSWORD);
  });

  it('salts every hash: the same password twice gives two hashes, each verifying', async () => {
    const [first, second] = await Promise.all([nodePasswordHasher.hash(PASSWORD), nodePasswordHasher.hash(PASSWORD)]);

    expect(first).not.toBe(second);
    expect(await nodePasswordHasher.verify(PASSWORD, first)).toBe(true);
    expect(await nodePasswordHasher.verify(PASSWORD, second)).toBe(true);
  });

  it('refuses another password, a changed hash and malformed or absurd stored values', async () => {
    const stored = await nodePasswordHasher.hash(PASSWORD);
    // A character in the middle of the hash (the last one also carries bits base64 ignores).
    const at = stored.length - 10;
    const changed = `${stored.slice(0, at)}${stored[at] === 'A' ? 'B' : 'A'}${stored.slice(at + 1)}`;

    expect(await nodePasswordHasher.verify(`${PASSWORD}.`, stored)).toBe(false);
    expect(await nodePasswordHasher.verify(PASSWORD, changed)).toBe(false);
    for (const malformed of [
      '',
      'plain text',
      stored.replace('scrypt$', 'bcrypt$'),
      stored.replace(`$${SCRYPT_PARAMETERS.N}$`, '$1000$'),
      stored.replace(`$${SCRYPT_PARAMETERS.N}$`, `$${2 ** 30}$`),
      `${stored}$extra`,
    ])
      expect(await nodePasswordHasher.verify(PASSWORD, malformed)).toBe(false);
  });

  it('is scrypt itself: it verifies the RFC 7914 test vector written in its format', async () => {
    expect(await nodePasswordHasher.verify('password', RFC_7914_VECTOR)).toBe(true);
    expect(await nodePasswordHasher.verify('Password', RFC_7914_VECTOR)).toBe(false);
  });

  it('verifies hashes made with other parameters and asks for those to be made again', async () => {
    const older = createScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
    const olderHash = await older.hash(PASSWORD);
    const currentHash = await nodePasswordHasher.hash(PASSWORD);

    expect(await nodePasswordHasher.verify(PASSWORD, olderHash)).toBe(true);
    expect(nodePasswordHasher.needsRehash(olderHash)).toBe(true);
    expect(nodePasswordHasher.needsRehash(RFC_7914_VECTOR)).toBe(true);
    expect(nodePasswordHasher.needsRehash('not a hash')).toBe(true);
    expect(nodePasswordHasher.needsRehash(currentHash)).toBe(false);
  });
});
