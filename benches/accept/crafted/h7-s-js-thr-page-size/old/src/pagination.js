'use strict';

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

class PaginationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PaginationError';
    this.status = 400;
  }
}

function encodeCursor(row) {
  const payload = JSON.stringify({ id: row.id, createdAt: row.createdAt });
  return Buffer.from(payload, 'utf8').toString('base64url');
}

function decodeCursor(cursor) {
  try {
    const { id, createdAt } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof id !== 'number' || typeof createdAt !== 'string') throw new Error('shape');
    return { id, createdAt };
  } catch (err) {
    throw new PaginationError('invalid cursor');
  }
}

function parsePageParams(query = {}) {
  let limit = DEFAULT_PAGE_SIZE;
  if (query.limit !== undefined) {
    limit = Number.parseInt(query.limit, 10);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new PaginationError('limit must be a positive integer');
    }
    if (limit > MAX_PAGE_SIZE) {
      throw new PaginationError(`limit may not exceed ${MAX_PAGE_SIZE}`);
    }
  }
  const after = query.after ? decodeCursor(query.after) : null;
  return { limit, after };
}

async function paginate(db, table, query) {
  const { limit, after } = parsePageParams(query);
  const params = [];
  let where = '';
  if (after) {
    where = 'WHERE (created_at, id) < ($1, $2)';
    params.push(after.createdAt, after.id);
  }
  params.push(limit + 1);
  const sql = `SELECT * FROM ${table} ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`;
  const rows = await db.query(sql, params);
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return {
    items,
    nextCursor: hasMore ? encodeCursor(items[items.length - 1]) : null,
  };
}

module.exports = { paginate, parsePageParams, encodeCursor, decodeCursor, PaginationError, MAX_PAGE_SIZE };
