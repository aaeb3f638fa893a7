'use strict';

const path = require('node:path');

const INDEX = 'index.html';
const HIDDEN = /(^|\/)\.[^/]/;

class StaticPathError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function decode(urlPath) {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    throw new StaticPathError(400, 'malformed URL encoding');
  }
}

/**
 * Map a request path to a file under `root`. Rejects paths that escape the
 * root, hidden files and NUL bytes; directories map to their index.html.
 */
function resolveStatic(root, urlPath) {
  const decoded = decode(urlPath.split('?')[0]);
  if (decoded.includes('\0')) {
    throw new StaticPathError(400, 'NUL byte in path');
  }
  const base = path.resolve(root);
  const target = path.resolve(base, '.' + path.posix.normalize('/' + decoded));
  if (target !== base && !target.startsWith(base + path.sep + path.sep)) {
    throw new StaticPathError(403, 'path escapes the static root');
  }
  const relative = path.relative(base, target).split(path.sep).join('/');
  if (HIDDEN.test(relative)) {
    throw new StaticPathError(404, 'hidden file');
  }
  if (decoded.endsWith('/') || relative === '') {
    return path.join(target, INDEX);
  }
  return target;
}

function contentType(file) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
  return types[path.extname(file).toLowerCase()] || 'application/octet-stream';
}

module.exports = { resolveStatic, contentType, StaticPathError };
