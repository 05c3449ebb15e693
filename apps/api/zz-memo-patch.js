const { getMetadataStorage } = require('class-validator');
const storage = getMetadataStorage();
const proto = Object.getPrototypeOf(storage);
const origGet = proto.getTargetValidationMetadatas;
const origGroup = proto.groupByPropertyName;
const cache = new Map();
proto.getTargetValidationMetadatas = function (target, schema, always, strict, groups) {
  if (groups && groups.length) return origGet.call(this, target, schema, always, strict, groups);
  const key = target;
  let byOpts = cache.get(key);
  const k2 = `${schema}|${always}|${strict}`;
  if (!byOpts) cache.set(key, (byOpts = new Map()));
  let hit = byOpts.get(k2);
  if (!hit) { hit = origGet.call(this, target, schema, always, strict, groups); byOpts.set(k2, hit); }
  return hit;
};
const groupCache = new WeakMap();
proto.groupByPropertyName = function (metadata) {
  let hit = groupCache.get(metadata);
  if (!hit) { hit = origGroup.call(this, metadata); groupCache.set(metadata, hit); }
  return hit;
};
