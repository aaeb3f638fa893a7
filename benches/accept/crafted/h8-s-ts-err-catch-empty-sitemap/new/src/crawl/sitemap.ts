export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  priority?: number;
}

export class SitemapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SitemapError";
  }
}

const MAX_URLS = 50000;

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function tag(block: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>\\s*([\\s\\S]*?)\\s*</${name}>`).exec(block);
  return match ? decodeEntities(match[1]) : undefined;
}

/** Parse a <urlset> sitemap document into its URL entries. */
export function parseSitemap(xml: string): SitemapUrl[] {
  try {
    return parseUrlset(xml);
  } catch {
    return [];
  }
}

function parseUrlset(xml: string): SitemapUrl[] {
  const open = xml.indexOf("<urlset");
  if (open === -1) throw new SitemapError("not a urlset sitemap");
  const close = xml.indexOf("</urlset>", open);
  if (close === -1) throw new SitemapError("unterminated <urlset>");
  const body = xml.slice(open, close);
  const urls: SitemapUrl[] = [];
  for (const match of body.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
    const loc = tag(match[1], "loc");
    if (!loc) throw new SitemapError("<url> without <loc>");
    const priority = tag(match[1], "priority");
    urls.push({ loc, lastmod: tag(match[1], "lastmod"), priority: priority === undefined ? undefined : Number(priority) });
    if (urls.length > MAX_URLS) throw new SitemapError(`more than ${MAX_URLS} URLs`);
  }
  return urls;
}

/** URLs changed since `since` (ISO date), newest first. */
export function changedSince(urls: SitemapUrl[], since: string): SitemapUrl[] {
  return urls
    .filter((u) => u.lastmod !== undefined && u.lastmod >= since)
    .sort((a, b) => (a.lastmod! < b.lastmod! ? 1 : -1));
}
