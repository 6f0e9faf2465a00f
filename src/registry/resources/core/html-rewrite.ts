/**
 * The link rewriting of the API server's proxy (upstream apimachinery util/proxy transport.go
 * rewriteHTML): an HTML answer is read token by token; every start tag is written back as Go's
 * html.Token String() writes it (lower-case names, attribute values double-quoted and escaped),
 * and the URL-valued attributes of the tags upstream lists are passed through `rewrite`. Text,
 * end tags, comments, doctypes and the raw text of script-like elements are copied as they are.
 */

/** The URL-valued attributes per tag (upstream atomsToAttrs). */
const urlAttrs: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    a: ['href'],
    applet: ['codebase'],
    area: ['href'],
    audio: ['src'],
    base: ['href'],
    blockquote: ['cite'],
    body: ['background'],
    button: ['formaction'],
    command: ['icon'],
    del: ['cite'],
    embed: ['src'],
    form: ['action'],
    frame: ['longdesc', 'src'],
    head: ['profile'],
    html: ['manifest'],
    iframe: ['longdesc', 'src'],
    img: ['longdesc', 'src', 'usemap'],
    input: ['src', 'usemap', 'formaction'],
    ins: ['cite'],
    link: ['href'],
    object: ['classid', 'codebase', 'data', 'usemap'],
    q: ['cite'],
    script: ['src'],
    source: ['src'],
    video: ['poster', 'src'],
  }).map(([tag, attrs]) => [tag, new Set(attrs)]),
);

/** Elements whose content is raw text up to their end tag (the tokenizer's raw tags). */
const rawTextTags = new Set([
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
]);

/** html.EscapeString as Token.String() applies it to attribute values. */
function escapeAttr(v: string): string {
  return v.replace(/[&'<>"\r]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === "'"
        ? '&#39;'
        : c === '<'
          ? '&lt;'
          : c === '>'
            ? '&gt;'
            : c === '"'
              ? '&#34;'
              : '&#13;',
  );
}

const namedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** html.UnescapeString for the entities attribute values use. */
function unescapeAttr(v: string): string {
  return v.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z]+);?/g, (m, ent: string) => {
    if (ent.startsWith('#')) {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return namedEntities[ent] ?? m;
  });
}

interface Attr {
  readonly key: string;
  val: string;
}

/** Parses a start tag at `i` (just after `<`); undefined when it is not one. */
function startTag(
  html: string,
  i: number,
): { name: string; attrs: Attr[]; selfClosing: boolean; end: number } | undefined {
  const nameMatch = /^[a-zA-Z][^\t\n\f\r />]*/.exec(html.slice(i));
  if (nameMatch === null) return undefined;
  const name = nameMatch[0].toLowerCase();
  let p = i + nameMatch[0].length;
  const attrs: Attr[] = [];
  let selfClosing = false;
  for (;;) {
    while (p < html.length && /[\t\n\f\r ]/.test(html[p]!)) p++;
    if (p >= html.length) return { name, attrs, selfClosing, end: p };
    const c = html[p]!;
    if (c === '>') return { name, attrs, selfClosing, end: p + 1 };
    if (c === '/') {
      p++;
      if (html[p] === '>') {
        selfClosing = true;
        return { name, attrs, selfClosing, end: p + 1 };
      }
      continue;
    }
    const keyMatch = /^[^\t\n\f\r />][^\t\n\f\r /=>]*/.exec(html.slice(p));
    const key = (keyMatch?.[0] ?? c).toLowerCase();
    p += keyMatch?.[0].length ?? 1;
    while (p < html.length && /[\t\n\f\r ]/.test(html[p]!)) p++;
    let val = '';
    if (html[p] === '=') {
      p++;
      while (p < html.length && /[\t\n\f\r ]/.test(html[p]!)) p++;
      const q = html[p];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, p + 1);
        const stop = close < 0 ? html.length : close;
        val = html.slice(p + 1, stop);
        p = close < 0 ? html.length : close + 1;
      } else {
        const m = /^[^\t\n\f\r >]*/.exec(html.slice(p));
        val = m?.[0] ?? '';
        p += val.length;
      }
    }
    attrs.push({ key, val: unescapeAttr(val) });
  }
}

/** Rewrites the URL-valued attributes of `html` with `rewrite` (see the file's comment). */
export function rewriteHtml(html: string, rewrite: (url: string) => string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      const end = close < 0 ? html.length : close + 3;
      out += html.slice(lt, end);
      i = end;
      continue;
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?' || html[lt + 1] === '/') {
      const close = html.indexOf('>', lt + 1);
      const end = close < 0 ? html.length : close + 1;
      out += html.slice(lt, end);
      i = end;
      continue;
    }
    const tag = startTag(html, lt + 1);
    if (tag === undefined) {
      out += '<';
      i = lt + 1;
      continue;
    }
    const keys = urlAttrs.get(tag.name);
    if (keys !== undefined) {
      for (const a of tag.attrs) if (keys.has(a.key)) a.val = rewrite(a.val);
    }
    out += `<${tag.name}${tag.attrs.map((a) => ` ${a.key}="${escapeAttr(a.val)}"`).join('')}${tag.selfClosing ? '/>' : '>'}`;
    i = tag.end;
    if (rawTextTags.has(tag.name) && !tag.selfClosing) {
      const close = html.toLowerCase().indexOf(`</${tag.name}`, i);
      const end = close < 0 ? html.length : close;
      out += html.slice(i, end);
      i = end;
    }
  }
  return out;
}
