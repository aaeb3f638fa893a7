import { parse as parseYaml } from 'yaml';

export interface PostMeta {
  title?: string;
  date?: string;
  tags?: string[];
  draft?: boolean;
  [key: string]: unknown;
}

export interface ParsedPost {
  meta: PostMeta;
  body: string;
}

export class FrontMatterError extends Error {
  constructor(
    message: string,
    public readonly file?: string,
  ) {
    super(file ? `${file}: ${message}` : message);
    this.name = 'FrontMatterError';
  }
}

const FENCE = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

function parseMeta(yamlText: string, file?: string): PostMeta {
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (err) {
    throw new FrontMatterError(`invalid YAML: ${(err as Error).message}`, file);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontMatterError('front matter must be a mapping', file);
  }
  return data as PostMeta;
}

function normalizeTags(meta: PostMeta): PostMeta {
  if (typeof meta.tags === 'string') {
    return { ...meta, tags: meta.tags.split(',').map((t) => t.trim()).filter(Boolean) };
  }
  return meta;
}

export function parsePost(source: string, file?: string): ParsedPost {
  const text = source.replace(/^\uFEFF/, '');
  const match = FENCE.exec(text);
  if (!match) {
    return { meta: {}, body: text };
  }
  const meta = normalizeTags(parseMeta(match[1], file));
  if (meta.date !== undefined && Number.isNaN(Date.parse(String(meta.date)))) {
    throw new FrontMatterError(`unparsable date ${String(meta.date)}`, file);
  }
  return { meta, body: text.slice(match[0].length) };
}

export function isPublished(post: ParsedPost, now: Date = new Date()): boolean {
  if (post.meta.draft) return false;
  if (!post.meta.date) return true;
  return Date.parse(String(post.meta.date)) <= now.getTime();
}
