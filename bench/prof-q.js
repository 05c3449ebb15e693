const path = require('path');
const kyselyDir = path.dirname(require.resolve('kysely', { paths: [require.resolve('@brand/persistence-kysely')] }));
const drv = require(path.join(kyselyDir, 'dialect/sqlite/sqlite-driver.js'));
const stats = new Map(); let on = false;
const Conn = Object.values(drv).find((v) => typeof v === 'function');
// find the connection class by instantiating driver? patch via prototype search
const Driver = drv.SqliteDriver;
const origAcquire = Driver.prototype.acquireConnection;
let patched = false;
Driver.prototype.acquireConnection = async function () {
  const c = await origAcquire.call(this);
  if (!patched) { patched = true; const proto = Object.getPrototypeOf(c); const orig = proto.executeQuery;
    proto.executeQuery = async function (q) { const t = process.hrtime.bigint(); try { return await orig.call(this, q); } finally { if (on) { const k = q.sql.replace(/\?(, \?)*/g, '?').slice(0, 140); const s = stats.get(k) || { n: 0, ms: 0 }; s.n++; s.ms += Number(process.hrtime.bigint() - t) / 1e6; stats.set(k, s); } } };
  }
  return c;
};
global.__startStats = () => { on = true; };
global.__printStats = (N) => { const all = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms); let tot = 0, n = 0; for (const [, s] of all) { tot += s.ms; n += s.n; } console.log(`queries/order ${(n / N).toFixed(1)}, sql ms/order ${(tot / N).toFixed(2)}`); for (const [k, s] of all.slice(0, 30)) console.log(`${(s.ms / N).toFixed(3)}ms ${(s.n / N).toFixed(1)}x ${k}`); };
