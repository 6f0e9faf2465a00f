import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { PAGE_CACHE_KIB, prepareDatabase } from './schema.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nanokube-schema-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('prepareDatabase', () => {
  it("sizes the page cache as SQLite's default (2 MiB), not better-sqlite3's 16 MB", () => {
    const file = path.join(dir, 'cache.db');
    const db = new Database(file);
    try {
      assert.equal(db.pragma('cache_size', { simple: true }), -16000, "better-sqlite3's own default");
      prepareDatabase(db, 'NORMAL', file);
      assert.equal(PAGE_CACHE_KIB, -2000);
      assert.equal(db.pragma('cache_size', { simple: true }), PAGE_CACHE_KIB);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('locking_mode', { simple: true }), 'exclusive');
    } finally {
      db.close();
    }
  });
});
